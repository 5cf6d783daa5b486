import { render, screen, within } from '@testing-library/react';
import { StepList } from './StepList';

describe('StepList', () => {
  it('is an ordered list of steps, each with an h3 title and its text', () => {
    render(
      <StepList
        steps={[
          { title: 'Upload your resume', text: 'PDF or Word.' },
          { title: 'Take the AI interview', text: '15 minutes.' },
          { title: 'Get introduced', text: 'To companies that fit.' },
        ]}
      />,
    );
    const list = screen.getByRole('list');
    expect(list.tagName).toBe('OL');
    const steps = within(list).getAllByRole('listitem');
    expect(steps.map((step) => within(step).getByRole('heading', { level: 3 }).textContent)).toEqual([
      'Upload your resume',
      'Take the AI interview',
      'Get introduced',
    ]);
    expect(within(steps[1]!).getByText('15 minutes.')).toBeInTheDocument();
    expect(list).not.toHaveAttribute('style');
  });

  it('shows the ratings a step names as skill badges, in a labelled list', () => {
    render(
      <StepList
        steps={[
          { title: 'Post jobs', text: 'Free.' },
          { title: 'AI interview assessments', text: 'Rated.', ratings: ['Elite', 'Pro', 'Moderate', 'Basic'] },
        ]}
      />,
    );
    const ratings = screen.getByRole('list', { name: 'Ratings' });
    expect(
      within(ratings)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Elite', 'Pro', 'Moderate', 'Basic']);
    expect(within(ratings).getByText('Elite')).toHaveClass('badge', 'elite');
  });
});
