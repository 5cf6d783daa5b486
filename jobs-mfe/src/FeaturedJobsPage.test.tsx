import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import Page from './Page';

function renderPage() {
  return render(
    <MemoryRouter initialEntries={['/featured-jobs']}>
      <Page />
    </MemoryRouter>,
  );
}

describe('Featured Jobs page', () => {
  it('has the heading and subtitle', () => {
    renderPage();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Featured Jobs');
    expect(screen.getByText('Discover elite opportunities from top companies.')).toBeInTheDocument();
  });

  it('has a top navigation whose Featured Jobs link points at this page and a Sign In button', () => {
    renderPage();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Featured Jobs' })).toHaveAttribute('href', '/featured-jobs');
    expect(within(nav).getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/coming-soon');
  });
});
