import { render, screen, within } from '@testing-library/react';
import { ReasonList } from './ReasonList';

const reasons = [
  { title: 'Interview once', text: 'One interview, many companies.', icon: 'mic' },
  { title: 'Second chances', text: 'Re-interview to improve your score.', icon: 'repeat' },
] as const;

describe('ReasonList', () => {
  it('lists each reason with an h3 title and its text', () => {
    render(<ReasonList reasons={reasons} />);
    const items = screen.getAllByRole('listitem');
    expect(items.map((item) => within(item).getByRole('heading', { level: 3 }).textContent)).toEqual([
      'Interview once',
      'Second chances',
    ]);
    expect(within(items[1]!).getByText('Re-interview to improve your score.')).toBeInTheDocument();
    expect(screen.queryByText('FREE')).not.toBeInTheDocument();
  });

  it('shows the tag with every item when one is given', () => {
    render(<ReasonList reasons={reasons} tag="FREE" />);
    for (const item of screen.getAllByRole('listitem')) {
      expect(within(item).getByText('FREE')).toBeInTheDocument();
    }
  });
});
