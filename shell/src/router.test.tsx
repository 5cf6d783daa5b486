import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import type { PageComponent, PageModule, RemoteName } from '@nativegtm/shared';
import { RemoteLoadError, type PageLoader } from './remotes/pageLoader';
import { createRoutes, logRouteError } from './router';
import { pageModule } from './testing/pageModule';

function pageNamed(name: string): PageComponent {
  return () => <h1>{name} page</h1>;
}

function renderAt(path: string, loader: PageLoader) {
  const router = createMemoryRouter(createRoutes(loader), { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
}

describe('shell routes', () => {
  beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it.each([
    ['/', 'candidates'],
    ['/employers', 'employers'],
    ['/featured-jobs', 'jobs'],
    ['/coming-soon', 'comingSoon'],
  ] as const)('renders %s from the %s remote', async (path, remote) => {
    const load = jest.fn((name: RemoteName) => Promise.resolve(pageModule(pageNamed(name))));
    renderAt(path, { load, preload: jest.fn(), prefetch: jest.fn() });
    expect(await screen.findByRole('heading', { name: `${remote} page` })).toBeInTheDocument();
    expect(load).toHaveBeenCalledWith(remote);
  });

  it('shows the 404 page for any other path, without loading a remote, and logs the path', async () => {
    const load = jest.fn();
    renderAt('/employers/extra?q=1', { load, preload: jest.fn(), prefetch: jest.fn() });
    expect(await screen.findByRole('heading', { name: 'Oops! Page not found' })).toBeInTheDocument();
    expect(screen.getByText('404')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
    expect(load).not.toHaveBeenCalled();
    expect(console.error).toHaveBeenCalledWith('404: no page at /employers/extra');
    expect(document.title).toBe('Page not found · NativeGTM');
  });

  it('shows the error screen when a remote fails, and "Try again" loads it again', async () => {
    const load = jest
      .fn()
      .mockRejectedValueOnce(new RemoteLoadError('jobs', 'failed to load'))
      .mockResolvedValueOnce(pageModule(pageNamed('jobs')));
    renderAt('/featured-jobs', { load, preload: jest.fn(), prefetch: jest.fn() });

    expect(await screen.findByRole('heading', { name: 'Unexpected Application Error!' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
    expect(screen.queryByText(/failed to load/)).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'jobs page' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('shows the error screen when a page throws while rendering', async () => {
    const Broken: PageComponent = () => {
      throw new Error('render failure');
    };
    renderAt('/coming-soon', {
      load: () => Promise.resolve(pageModule(Broken)),
      preload: jest.fn(),
      prefetch: jest.fn(),
    });
    expect(await screen.findByRole('heading', { name: 'Unexpected Application Error!' })).toBeInTheDocument();
    expect(screen.queryByText('render failure')).not.toBeInTheDocument();
  });
});

describe('logRouteError', () => {
  beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it('names the remote whose page failed while rendering', () => {
    const error = new Error('boom');
    logRouteError(error, '/featured-jobs');
    expect(console.error).toHaveBeenCalledWith('[shell] Remote "jobs": its page failed while rendering', error);
  });

  it('does not log load failures again: the page loader already did', () => {
    logRouteError(new RemoteLoadError('jobs', 'down'), '/featured-jobs');
    expect(console.error).not.toHaveBeenCalled();
  });
});

describe('loading indicators', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('show nothing for a fast load and a status once loading passes 300 ms', async () => {
    let resolvePage: (page: PageModule) => void = () => undefined;
    const pending = new Promise<PageModule>((resolve) => {
      resolvePage = resolve;
    });
    renderAt('/', { load: () => pending, preload: jest.fn(), prefetch: jest.fn() });

    await act(() => jest.advanceTimersByTimeAsync(299));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    await act(() => jest.advanceTimersByTimeAsync(1));
    expect(screen.getByRole('status')).toHaveTextContent('Loading page…');

    await act(async () => resolvePage(pageModule(pageNamed('candidates'))));
    expect(await screen.findByRole('heading', { name: 'candidates page' })).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });
});
