import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, MemoryRouter, RouterProvider } from 'react-router-dom';
import Page from './Page';

function renderPage() {
  return render(
    <MemoryRouter initialEntries={['/featured-jobs']}>
      <Page />
    </MemoryRouter>,
  );
}

/** The page in a router with a history of its own, so tests can read the URL and go back and forward. */
function renderAt(url = '/featured-jobs') {
  const router = createMemoryRouter(
    [
      { path: '/featured-jobs', element: <Page /> },
      { path: '/coming-soon', element: <h1>Coming Soon stand-in</h1> },
    ],
    { initialEntries: [url] },
  );
  render(<RouterProvider router={router} />);
  return { router, user: userEvent.setup() };
}

const select = (label: string) => screen.getByRole('combobox', { name: label });
const count = () => screen.getByRole('status');
const cardTitles = () =>
  screen.queryAllByRole('article').map((card) => within(card).getByRole('heading', { level: 2 }).textContent);
const allTitlesNewestFirst = [
  'Product Marketing Manager',
  'Product Manager - SAAS',
  'Senior Product Manager',
  'Product Manager - Consumer',
  'Consumer Marketing Specialist',
  'Enterprise Account Executive',
];

describe('Featured Jobs page', () => {
  it('has the heading and subtitle', () => {
    renderPage();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Featured Jobs');
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByText('Discover elite opportunities from top companies.')).toBeInTheDocument();
  });

  it('has a top navigation whose Featured Jobs link points at this page and a Sign In button', () => {
    renderPage();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Featured Jobs' })).toHaveAttribute('href', '/featured-jobs');
    expect(within(nav).getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/coming-soon');
  });

  it('has three labelled native selects with the options of the spec, in order', () => {
    renderPage();
    const optionTexts = (label: string) =>
      within(select(label))
        .getAllByRole('option')
        .map((option) => option.textContent);
    expect(select('Job Function').tagName).toBe('SELECT');
    expect(optionTexts('Job Function')).toEqual([
      'All Job Functions',
      'Product Management',
      'Product Marketing',
      'Account Executive',
      'Consumer Marketing',
    ]);
    expect(optionTexts('Location')).toEqual([
      'All Locations',
      'US (Remote)',
      'San Francisco, CA',
      'New York, NY',
      'Los Angeles, CA',
      'Austin, TX',
    ]);
    expect(optionTexts('Sort by')).toEqual(['Date Posted']);
    expect(select('Job Function')).toHaveDisplayValue('All Job Functions');
    expect(select('Location')).toHaveDisplayValue('All Locations');
  });

  it('lists all six jobs, newest first, under a count line in a live region', () => {
    renderPage();
    expect(count()).toHaveTextContent(/^6 jobs found$/);
    expect(cardTitles()).toEqual(allTitlesNewestFirst);
  });

  it('shows every part of a job card', () => {
    renderPage();
    const card = screen.getByRole('article', { name: 'Product Marketing Manager' });
    expect(within(card).getByText('Fernway Labs')).toBeInTheDocument();
    expect(within(card).getByText('Austin, TX')).toBeInTheDocument();
    expect(within(card).getByText('Jun 15, 2025')).toHaveAttribute('datetime', '2025-06-15');
    expect(within(card).getByText('Product Marketing')).toBeInTheDocument();
    expect(within(card).getByText('Pro')).toHaveClass('pro');
    expect(within(card).getByText('Full-time')).toBeInTheDocument();
    expect(within(card).getByText(/^Craft positioning and launch plans/)).toBeInTheDocument();
    const apply = within(card).getByRole('link', { name: 'Apply Now for Product Marketing Manager' });
    expect(apply).toHaveAttribute('href', '/coming-soon');
    expect(apply).toHaveTextContent(/^Apply Now/);
  });

  it('gives every Apply Now link a distinct name that starts with its visible text', () => {
    renderPage();
    const names = screen.getAllByRole('link', { name: /^Apply Now/ }).map((link) => link.textContent);
    expect(names).toEqual(allTitlesNewestFirst.map((title) => `Apply Now for ${title}`));
  });

  it('filters by function AND location, writing the choice into the URL', async () => {
    const { router, user } = renderAt();

    await user.selectOptions(select('Job Function'), 'Product Management');
    expect(router.state.location.search).toBe('?function=product-management');
    expect(cardTitles()).toEqual(['Product Manager - SAAS', 'Senior Product Manager', 'Product Manager - Consumer']);
    expect(count()).toHaveTextContent(/^3 jobs found$/);

    await user.selectOptions(select('Location'), 'San Francisco, CA');
    expect(router.state.location.search).toBe('?function=product-management&location=san-francisco-ca');
    expect(cardTitles()).toEqual(['Product Manager - Consumer']);
    expect(count()).toHaveTextContent(/^1 job found$/);

    await user.selectOptions(select('Job Function'), 'All Job Functions');
    expect(router.state.location.search).toBe('?location=san-francisco-ca');
    expect(cardTitles()).toEqual(['Product Manager - Consumer']);
  });

  it('makes each choice a history entry: Back undoes it, Forward redoes it', async () => {
    const { router, user } = renderAt();
    await user.selectOptions(select('Job Function'), 'Product Management');
    await user.selectOptions(select('Location'), 'US (Remote)');
    expect(cardTitles()).toEqual(['Product Manager - SAAS', 'Senior Product Manager']);

    await act(() => router.navigate(-1));
    expect(router.state.location.search).toBe('?function=product-management');
    expect(select('Location')).toHaveDisplayValue('All Locations');
    expect(count()).toHaveTextContent(/^3 jobs found$/);

    await act(() => router.navigate(-1));
    expect(router.state.location.search).toBe('');
    expect(select('Job Function')).toHaveDisplayValue('All Job Functions');
    expect(cardTitles()).toEqual(allTitlesNewestFirst);

    await act(() => router.navigate(2));
    expect(select('Job Function')).toHaveDisplayValue('Product Management');
    expect(select('Location')).toHaveDisplayValue('US (Remote)');
    expect(count()).toHaveTextContent(/^2 jobs found$/);
  });

  it('reproduces a shared link', () => {
    renderAt('/featured-jobs?function=product-marketing&location=austin-tx');
    expect(select('Job Function')).toHaveDisplayValue('Product Marketing');
    expect(select('Location')).toHaveDisplayValue('Austin, TX');
    expect(select('Sort by')).toHaveDisplayValue('Date Posted');
    expect(cardTitles()).toEqual(['Product Marketing Manager']);
    expect(count()).toHaveTextContent(/^1 job found$/);
  });

  it('keeps query parameters that are not its own', async () => {
    const { router, user } = renderAt('/featured-jobs?utm_source=newsletter');
    await user.selectOptions(select('Location'), 'New York, NY');
    expect(router.state.location.search).toBe('?utm_source=newsletter&location=new-york-ny');
  });

  it('shows the empty state when nothing matches, and Clear Filters brings every job back but keeps the sort', async () => {
    const { router, user } = renderAt('/featured-jobs?function=account-executive');
    await user.selectOptions(select('Location'), 'Austin, TX');

    expect(count()).toHaveTextContent(/^0 jobs found$/);
    expect(cardTitles()).toEqual([]);
    expect(screen.getByRole('heading', { name: 'No jobs found matching your criteria.' })).toBeInTheDocument();
    expect(select('Sort by')).toHaveDisplayValue('Date Posted');

    await user.click(screen.getByRole('button', { name: 'Clear Filters' }));

    expect(router.state.location.search).toBe('');
    expect(select('Job Function')).toHaveDisplayValue('All Job Functions');
    expect(select('Location')).toHaveDisplayValue('All Locations');
    expect(select('Sort by')).toHaveDisplayValue('Date Posted');
    expect(cardTitles()).toEqual(allTitlesNewestFirst);
    expect(count()).toHaveTextContent(/^6 jobs found$/);
    expect(screen.queryByText('No jobs found matching your criteria.')).not.toBeInTheDocument();
    // Focus lands on the first filter instead of being lost with the vanished button.
    expect(select('Job Function')).toHaveFocus();

    await act(() => router.navigate(-1));
    expect(screen.getByRole('button', { name: 'Clear Filters' })).toBeInTheDocument();
  });

  it.each([
    ['markup', '?function=<script>alert("x")</script>&location=<b>bold</b>'],
    ['garbled percent-encoding', '?location=%E0%A4%A'],
    ['a repeated parameter', '?function=a&function=b'],
    ['an unknown sort', '?sort=salary-desc'],
  ])('shows all six jobs for %s in the query, and never renders it', (_case, query) => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    renderAt(`/featured-jobs${query}`);
    expect(select('Job Function')).toHaveDisplayValue('All Job Functions');
    expect(select('Location')).toHaveDisplayValue('All Locations');
    expect(select('Sort by')).toHaveDisplayValue('Date Posted');
    expect(cardTitles()).toEqual(allTitlesNewestFirst);
    expect(document.body.textContent).not.toMatch(/script|alert|bold|salary|%E0/);
    expect(document.querySelector('b')).toBeNull();
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
  });

  it('a junk parameter is dropped once the visitor chooses a filter', async () => {
    const { router, user } = renderAt('/featured-jobs?function=%3Cscript%3E');
    await user.selectOptions(select('Location'), 'Los Angeles, CA');
    expect(router.state.location.search).toBe('?location=los-angeles-ca');
  });

  it('Apply Now goes to Coming Soon inside the app', async () => {
    const { router, user } = renderAt('/featured-jobs?location=new-york-ny');
    await user.click(screen.getByRole('link', { name: 'Apply Now for Enterprise Account Executive' }));
    expect(await screen.findByRole('heading', { name: 'Coming Soon stand-in' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/coming-soon');
  });

  it('sets the document title', () => {
    renderPage();
    expect(document.title).toBe('Featured Jobs · NativeGTM');
  });
});
