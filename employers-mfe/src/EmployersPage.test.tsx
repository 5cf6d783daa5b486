import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import Page from './Page';

function renderPage() {
  return render(
    <MemoryRouter initialEntries={['/employers']}>
      <Page />
    </MemoryRouter>,
  );
}

describe('Employers page hero', () => {
  it('opens with the headline, three benefits and the search button to Coming Soon', () => {
    renderPage();
    const hero = screen.getByRole('region', { name: 'Hire Vetted AI-Native GTM Talent' });
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Hire Vetted AI-Native GTM Talent');
    for (const benefit of [/Fewer biases/, /Faster sourcing/, /Lower cost for skilled talent/]) {
      expect(within(hero).getByText(benefit)).toBeInTheDocument();
    }
    expect(within(hero).getByRole('link', { name: 'Search AI Native Candidates' })).toHaveAttribute(
      'href',
      '/coming-soon',
    );
  });

  it('has the landing header with the employer sign-in', () => {
    renderPage();
    expect(screen.getByRole('link', { name: 'Employer Sign In' })).toHaveAttribute('href', '/coming-soon');
  });
});
