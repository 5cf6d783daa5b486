import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { SiteHeader } from './SiteHeader';

const links = [
  { label: 'Candidates', to: '/' },
  { label: 'Employers', to: '/employers' },
  { label: 'Featured Jobs', to: '/coming-soon' },
];

function renderHeader(signInLabel = 'Candidate Sign In') {
  const header = <SiteHeader links={links} signIn={{ label: signInLabel, to: '/coming-soon' }} />;
  const router = createMemoryRouter(
    [
      { path: '/', element: header },
      { path: '/employers', element: header },
      { path: '/coming-soon', element: header },
    ],
    { initialEntries: ['/'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

describe('SiteHeader', () => {
  it('shows the logo, the links with their targets and the sign-in label the page passes', () => {
    renderHeader('Employer Sign In');
    expect(screen.getByRole('link', { name: 'NativeGTM home' })).toHaveAttribute('href', '/');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]),
    ).toEqual([
      ['Candidates', '/'],
      ['Employers', '/employers'],
      ['Featured Jobs', '/coming-soon'],
      ['Employer Sign In', '/coming-soon'],
    ]);
  });

  it('marks the current page', () => {
    renderHeader();
    expect(screen.getByRole('link', { name: 'Candidates' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Employers' })).not.toHaveAttribute('aria-current');
  });

  it('opens and closes the mobile menu with its button, telling assistive technology', async () => {
    renderHeader();
    const toggle = screen.getByRole('button', { name: 'Menu' });
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(toggle).toHaveAttribute('aria-controls', nav.id);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(nav).toHaveAttribute('data-open', 'false');

    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(toggle).toHaveAccessibleName('Menu');
    expect(nav).toHaveAttribute('data-open', 'true');

    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  it('closes the menu on Escape and gives focus back to the button', async () => {
    renderHeader();
    const toggle = screen.getByRole('button', { name: 'Menu' });
    await userEvent.click(toggle);
    await userEvent.keyboard('{Escape}');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveFocus();
  });

  it('closes the menu when a link navigates', async () => {
    const router = renderHeader();
    await userEvent.click(screen.getByRole('button', { name: 'Menu' }));
    await userEvent.click(screen.getByRole('link', { name: 'Employers' }));
    expect(router.state.location.pathname).toBe('/employers');
    expect(screen.getByRole('button', { name: 'Menu' })).toHaveAttribute('aria-expanded', 'false');
  });

  it('closes the menu when the sign-in button navigates', async () => {
    const router = renderHeader();
    await userEvent.click(screen.getByRole('button', { name: 'Menu' }));
    await userEvent.click(screen.getByRole('link', { name: 'Candidate Sign In' }));
    expect(router.state.location.pathname).toBe('/coming-soon');
    expect(screen.getByRole('button', { name: 'Menu' })).toHaveAttribute('aria-expanded', 'false');
  });

  it('closes the menu when a link to the page already shown is chosen', async () => {
    renderHeader();
    const toggle = screen.getByRole('button', { name: 'Menu' });
    await userEvent.click(toggle);
    await userEvent.click(screen.getByRole('link', { name: 'Candidates' }));
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  it('closes the menu on a click outside the header, and not on one inside it', async () => {
    render(
      <>
        <SiteHeader links={links} signIn={{ label: 'Candidate Sign In', to: '/coming-soon' }} />
        <p>Page content</p>
      </>,
      { wrapper: ({ children }) => <RouterProvider router={createMemoryRouter([{ path: '/', element: children }])} /> },
    );
    const toggle = screen.getByRole('button', { name: 'Menu' });
    await userEvent.click(toggle);
    await userEvent.click(screen.getByRole('navigation', { name: 'Main' }));
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await userEvent.click(screen.getByText('Page content'));
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  it('points every link at a site path in the same tab', () => {
    renderHeader();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    for (const link of within(nav).getAllByRole('link')) {
      expect(link).not.toHaveAttribute('target');
      expect(link.getAttribute('href')).toMatch(/^\/[a-z-]*$/);
    }
  });
});
