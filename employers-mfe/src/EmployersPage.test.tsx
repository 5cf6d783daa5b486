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

const region = (name: string) => screen.getByRole('region', { name });
const headingsIn = (element: HTMLElement, level: number) =>
  within(element)
    .getAllByRole('heading', { level })
    .map((heading) => heading.textContent);

describe('Employers page hero', () => {
  it('opens with the headline, three benefits and the search button to Coming Soon', () => {
    renderPage();
    const hero = region('Hire Vetted AI-Native GTM Talent');
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

describe('Employers page sections', () => {
  it('has exactly one h1 and names every section with an h2', () => {
    renderPage();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(headingsIn(screen.getByRole('main'), 2)).toEqual([
      'Everything you need to hire, FREE',
      'Search AI-native GTM talent by role',
      'Five reasons to hire with us',
      'From job post to introduction in five steps',
      'Roles companies are filling with us',
    ]);
  });

  it('offers four things for FREE, each marked FREE', () => {
    renderPage();
    const offer = region('Everything you need to hire, FREE');
    expect(headingsIn(offer, 3)).toEqual([
      'Post Jobs',
      'Search for Candidates',
      'Assign AI Interviews',
      'Get Introduced',
    ]);
    const items = within(offer).getAllByRole('listitem');
    expect(items).toHaveLength(4);
    for (const item of items) expect(within(item).getByText('FREE')).toBeInTheDocument();
  });

  it('shows four role cards, each with a Search button to Coming Soon', () => {
    renderPage();
    const roles = region('Search AI-native GTM talent by role');
    expect(headingsIn(roles, 3)).toEqual([
      'Account Executive - Sales',
      'Sales Leaders',
      'Product Marketing',
      'Product Managers',
    ]);
    const cards = within(roles).getAllByRole('article');
    expect(cards).toHaveLength(4);
    for (const card of cards) {
      expect(within(card).getByRole('link', { name: 'Search' })).toHaveAttribute('href', '/coming-soon');
    }
  });

  it('gives five reasons to hire', () => {
    renderPage();
    expect(headingsIn(region('Five reasons to hire with us'), 3)).toEqual([
      'Free and no risk',
      'Pre-vetted skills',
      'Unearth value talent',
      'Super fast sourcing',
      'Reduce hiring bias',
    ]);
  });

  it('walks through the five-step hiring flow, showing the four ratings at the assessment step', () => {
    renderPage();
    const flow = region('From job post to introduction in five steps');
    const steps = within(flow)
      .getAllByRole('listitem')
      .filter((item) => item.parentElement?.tagName === 'OL');
    expect(steps.map((step) => within(step).getByRole('heading', { level: 3 }).textContent)).toEqual([
      'Post jobs',
      'Candidate search initiated',
      'AI interview assessments',
      'Search candidates',
      'Get introduced',
    ]);
    const ratings = within(steps[2]!).getByRole('list', { name: 'Ratings' });
    expect(
      within(ratings)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Elite', 'Pro', 'Moderate', 'Basic']);
  });

  it('lists six roles in a table, all US (Remote), each with Hire Now to Coming Soon', () => {
    renderPage();
    const table = within(region('Roles companies are filling with us')).getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Position', 'Location', 'Action']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getByRole('rowheader').textContent)).toEqual([
      'Product Manager - Consumer',
      'Product Manager - SAAS',
      'Pre Sales Engineer',
      'Consumer Marketer',
      'B2B Sales Leader',
      'Product Marketer',
    ]);
    for (const row of rows) {
      expect(within(row).getAllByRole('cell')[0]).toHaveTextContent('US (Remote)');
      expect(within(row).getByRole('link', { name: 'Hire Now' })).toHaveAttribute('href', '/coming-soon');
    }
  });

  it('sends every button on the page to Coming Soon', () => {
    renderPage();
    expect(screen.getByRole('link', { name: 'Employer Sign In' })).toHaveAttribute('href', '/coming-soon');
    const targets = within(screen.getByRole('main'))
      .getAllByRole('link')
      .map((link) => [link.textContent, link.getAttribute('href')]);
    const comingSoon = (label: string) => [label, '/coming-soon'];
    expect(targets).toEqual([
      comingSoon('Search AI Native Candidates'),
      ...Array.from({ length: 4 }, () => comingSoon('Search')),
      ...Array.from({ length: 6 }, () => comingSoon('Hire Now')),
    ]);
  });

  it('ends with the footer: current year and company name', () => {
    renderPage();
    expect(
      within(screen.getByRole('contentinfo')).getByText(
        `© ${new Date().getFullYear()} NativeGTM. All rights reserved.`,
      ),
    ).toBeInTheDocument();
  });
});
