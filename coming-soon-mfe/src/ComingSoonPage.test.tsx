import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import Page from './Page';

function renderPage() {
  return render(
    <MemoryRouter initialEntries={['/coming-soon']}>
      <Page />
    </MemoryRouter>,
  );
}

describe('Coming Soon page', () => {
  it('says the product is coming soon, with its tagline and three promises', () => {
    renderPage();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('NativeGTM is Coming Soon');
    expect(screen.getByText("We're revolutionizing hiring with AI-powered skill assessments.")).toBeInTheDocument();
    const promises = screen.getAllByRole('listitem').map((item) => item.textContent);
    expect(promises).toEqual(
      expect.arrayContaining(['No more resume guesswork.', 'No more failed hires.', 'Just proven talent, delivered.']),
    );
  });

  it('leads back home', () => {
    renderPage();
    expect(screen.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
  });

  it('opens the early-access form in a new tab, safely', () => {
    renderPage();
    const beta = screen.getByRole('region', { name: 'Join the Beta' });
    expect(
      within(beta).getByText(
        'Be among the first to experience standardized skill assessment that transforms how you hire.',
      ),
    ).toBeInTheDocument();
    const link = within(beta).getByRole('link', { name: /Get Early Access/ });
    expect(link).toHaveAttribute('href', 'https://forms.nativegtm.example/early-access');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('offers a mailto link to the recruiters', () => {
    renderPage();
    const questions = screen.getByRole('region', { name: 'Questions?' });
    expect(within(questions).getByRole('link', { name: 'Contact us' })).toHaveAttribute(
      'href',
      'mailto:recruiting@nativegtm.example',
    );
  });

  it('has footer links where the spec puts them (Featured Jobs to /coming-soon on this page)', () => {
    renderPage();
    const footer = screen.getByRole('navigation', { name: 'Footer' });
    expect(
      within(footer)
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]),
    ).toEqual([
      ['Candidates', '/'],
      ['Employers', '/employers'],
      ['Featured Jobs', '/coming-soon'],
    ]);
    expect(screen.getByText(`© ${new Date().getFullYear()} NativeGTM. All rights reserved.`)).toBeInTheDocument();
  });

  it('sets the document title', () => {
    renderPage();
    expect(document.title).toBe('Coming Soon · NativeGTM');
  });
});
