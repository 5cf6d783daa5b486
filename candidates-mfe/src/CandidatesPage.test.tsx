import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import Page from './Page';

function renderPage() {
  return render(
    <MemoryRouter>
      <Page />
    </MemoryRouter>,
  );
}

describe('Candidates page hero', () => {
  it('states the tagline, the headline and the 15-minute interview', () => {
    renderPage();
    expect(screen.getByText("AI won't take your job. Someone using AI will.")).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Land high-paying AI-native GTM jobs');
    expect(screen.getByText(/15-minute AI voice interview/)).toBeInTheDocument();
  });

  it('lists three benefits and an Apply Now button to Coming Soon', () => {
    renderPage();
    const hero = screen.getByRole('region', { name: 'Land high-paying AI-native GTM jobs' });
    for (const benefit of [
      'One interview, introductions to many companies',
      'Your functional skills and AI proficiency, assessed fairly',
      'Access to confidential roles that are not public yet',
    ]) {
      expect(within(hero).getByText(benefit)).toBeInTheDocument();
    }
    expect(within(hero).getByRole('link', { name: 'Apply Now' })).toHaveAttribute('href', '/coming-soon');
  });

  it('has the landing header with the candidate sign-in', () => {
    renderPage();
    expect(screen.getByRole('link', { name: 'Candidate Sign In' })).toHaveAttribute('href', '/coming-soon');
  });
});
