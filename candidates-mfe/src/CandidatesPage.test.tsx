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

const region = (name: string) => screen.getByRole('region', { name });
const headingsIn = (element: HTMLElement, level: number) =>
  within(element)
    .getAllByRole('heading', { level })
    .map((heading) => heading.textContent);

describe('Candidates page hero', () => {
  it('states the tagline, the headline and the 15-minute interview', () => {
    renderPage();
    expect(screen.getByText("AI won't take your job. Someone using AI will.")).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Land high-paying AI-native GTM jobs');
    expect(screen.getAllByText(/15-minute AI voice interview/).length).toBeGreaterThan(0);
  });

  it('lists three benefits and an Apply Now button to Coming Soon', () => {
    renderPage();
    const hero = region('Land high-paying AI-native GTM jobs');
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

describe('Candidates page sections', () => {
  it('has exactly one h1 and names every section with an h2', () => {
    renderPage();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(headingsIn(screen.getByRole('main'), 2)).toEqual([
      'Find your next AI-native GTM role',
      'Three steps to your next role',
      'Five reasons to interview with us',
      'Hiring AI-native GTM talent?',
      'Featured Jobs',
    ]);
  });

  it('shows the five role cards, each with its own Apply Now to Coming Soon', () => {
    renderPage();
    const roles = region('Find your next AI-native GTM role');
    expect(headingsIn(roles, 3)).toEqual([
      'Account Executive - Sales',
      'Sales Engineer',
      'Sales Leader',
      'Product Manager',
      'Product Marketing',
    ]);
    const cards = within(roles).getAllByRole('article');
    expect(cards).toHaveLength(5);
    for (const card of cards) {
      expect(within(card).getByRole('link', { name: 'Apply Now' })).toHaveAttribute('href', '/coming-soon');
    }
  });

  it('explains how it works in three ordered steps, with the rating levels', () => {
    renderPage();
    const how = region('Three steps to your next role');
    const steps = within(how)
      .getAllByRole('listitem')
      .filter((item) => item.parentElement?.tagName === 'OL');
    expect(steps.map((step) => within(step).getByRole('heading', { level: 3 }).textContent)).toEqual([
      'Upload your resume',
      'Take the AI interview',
      'Get introduced',
    ]);
    expect(within(how).getByText(/15-minute voice interview/)).toBeInTheDocument();
    const ratings = within(how).getByRole('list', { name: 'Ratings' });
    expect(ratings).toHaveTextContent('EliteProModerateBasic');
  });

  it('gives five reasons to interview', () => {
    renderPage();
    expect(headingsIn(region('Five reasons to interview with us'), 3)).toEqual([
      'Interview once',
      'Second chances',
      'Reduce biases',
      'Right role',
      'Confidential roles',
    ]);
  });

  it('invites employers to search candidates, with no credit card required', () => {
    renderPage();
    const teaser = region('Hiring AI-native GTM talent?');
    expect(within(teaser).getByRole('link', { name: 'Search Candidates' })).toHaveAttribute('href', '/coming-soon');
    expect(within(teaser).getByText('No credit card required')).toBeInTheDocument();
  });

  it('lists five featured jobs in the US in a table, each with an action to Coming Soon', () => {
    renderPage();
    const table = within(region('Featured Jobs')).getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Position', 'Location', 'Action']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(5);
    for (const row of rows) {
      expect(within(row).getAllByRole('cell')[0]).toHaveTextContent('US');
      expect(within(row).getByRole('link', { name: 'Apply Now' })).toHaveAttribute('href', '/coming-soon');
    }
  });

  it('ends with the footer: current year and company name', () => {
    renderPage();
    expect(
      within(screen.getByRole('contentinfo')).getByText(
        `© ${new Date().getFullYear()} NativeGTM. All rights reserved.`,
      ),
    ).toBeInTheDocument();
  });

  it('leads every link on the page where the spec says, and nowhere else', () => {
    renderPage();
    const targets = screen.getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')]);
    const comingSoon = (label: string) => [label, '/coming-soon'];
    expect(targets).toEqual([
      ['NativeGTM', '/'],
      ['Candidates', '/'],
      ['Employers', '/employers'],
      comingSoon('Featured Jobs'),
      comingSoon('Candidate Sign In'),
      comingSoon('Apply Now'),
      ...Array.from({ length: 5 }, () => comingSoon('Apply Now')),
      comingSoon('Search Candidates'),
      ...Array.from({ length: 5 }, () => comingSoon('Apply Now')),
    ]);
  });

  it('sets the document title', () => {
    renderPage();
    expect(document.title).toBe('AI-native GTM jobs for candidates · NativeGTM');
  });
});
