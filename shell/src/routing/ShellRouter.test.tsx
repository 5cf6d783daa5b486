import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PageComponent, PageModule, RemoteName } from '@nativegtm/design-system';
import { RemoteLoadError } from '../remotes/pageLoader';
import { pageModule } from '../testing/pageModule';
import { renderShellAt as renderAt } from '../testing/renderShellAt';
import { createMemoryHistory } from './history';
import { logRouteError } from './logRouteError';
import { createShellNavigation } from './shellNavigation';
import { ShellRouter } from './ShellRouter';

function pageNamed(name: string): PageComponent {
  return () => <h1>{name} page</h1>;
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
    renderAt(path, { load });
    expect(await screen.findByRole('heading', { name: `${remote} page` })).toBeInTheDocument();
    expect(load).toHaveBeenCalledWith(remote);
  });

  it('shows the 404 page for any other path, without loading a remote, and logs the path', async () => {
    const load = jest.fn();
    renderAt('/employers/extra?q=1', { load });
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
    renderAt('/featured-jobs', { load });

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
    renderAt('/coming-soon', { load: () => Promise.resolve(pageModule(Broken)) });
    expect(await screen.findByRole('heading', { name: 'Unexpected Application Error!' })).toBeInTheDocument();
    expect(screen.queryByText('render failure')).not.toBeInTheDocument();
    expect(console.error).toHaveBeenCalledWith(
      '[shell] Remote "comingSoon": its page failed while rendering',
      expect.objectContaining({ message: 'render failure' }),
    );
  });

  it('gives a page that failed while rendering a fresh start on Try again', async () => {
    let broken = true;
    const Flaky: PageComponent = () => {
      if (broken) throw new Error('render failure until fixed');
      return <h1>Recovered page</h1>;
    };
    renderAt('/coming-soon', { load: () => Promise.resolve(pageModule(Flaky)) });
    const retry = await screen.findByRole('button', { name: 'Try again' });
    broken = false;
    await userEvent.click(retry);
    expect(await screen.findByRole('heading', { name: 'Recovered page' })).toBeInTheDocument();
  });
});

describe('client-side navigation between screens', () => {
  beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  /** A loader whose loads the test finishes itself, one remote at a time. */
  function manualLoader() {
    const waiting = new Map<RemoteName, (page: PageModule) => void>();
    const load = jest.fn(
      (remote: RemoteName) =>
        new Promise<PageModule>((resolve) => {
          waiting.set(remote, resolve);
        }),
    );
    const deliver = (remote: RemoteName) => act(async () => waiting.get(remote)!(pageModule(pageNamed(remote))));
    return { load, deliver };
  }

  it('keeps the current page on screen while the next remote loads, then shows it', async () => {
    const { load, deliver } = manualLoader();
    const { history } = renderAt('/', { load });
    await deliver('candidates');
    expect(await screen.findByRole('heading', { name: 'candidates page' })).toBeInTheDocument();

    act(() => history.push('/employers'));
    expect(screen.getByRole('heading', { name: 'candidates page' })).toBeInTheDocument();
    await deliver('employers');
    expect(await screen.findByRole('heading', { name: 'employers page' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'candidates page' })).not.toBeInTheDocument();
  });

  it('shows where the visitor went last when an earlier navigation finishes later', async () => {
    const { load, deliver } = manualLoader();
    const { history, navigation } = renderAt('/', { load });
    await deliver('candidates');
    act(() => history.push('/employers'));
    act(() => history.push('/coming-soon'));
    await deliver('comingSoon');
    await deliver('employers');
    expect(await screen.findByRole('heading', { name: 'comingSoon page' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'employers page' })).not.toBeInTheDocument();
    expect(navigation.state.location.pathname).toBe('/coming-soon');
  });

  it('stays on the page it is back on when the navigation it left is still loading', async () => {
    const { load, deliver } = manualLoader();
    const { history, navigation } = renderAt('/', { load });
    await deliver('candidates');
    act(() => history.push('/employers'));
    act(() => history.go(-1));
    await deliver('employers');
    expect(screen.getByRole('heading', { name: 'candidates page' })).toBeInTheDocument();
    expect(navigation.state).toMatchObject({ loading: false, location: expect.objectContaining({ pathname: '/' }) });
  });

  it("shows the error screen, not a blank page, when the shell's own code around the page fails", async () => {
    const load = jest.fn((name: RemoteName) => Promise.resolve(pageModule(pageNamed(name))));
    const history = createMemoryHistory(['/']);
    const navigation = createShellNavigation(history, { load, preload: jest.fn(), prefetch: jest.fn() });
    // The layout's scroll restoration is the second to listen to the history (the navigation is the first).
    jest.spyOn(history, 'listen').mockImplementation(() => {
      throw new Error('layout failure');
    });
    render(<ShellRouter navigation={navigation} />);
    expect(await screen.findByRole('heading', { name: 'Unexpected Application Error!' })).toBeInTheDocument();
    expect(console.error).toHaveBeenCalledWith(
      '[shell] Route error',
      expect.objectContaining({ message: 'layout failure' }),
    );
  });

  it('changes the query of the page on screen at once, without loading its remote again', async () => {
    const load = jest.fn((name: RemoteName) => Promise.resolve(pageModule(pageNamed(name))));
    const { history, navigation } = renderAt('/featured-jobs', { load });
    await screen.findByRole('heading', { name: 'jobs page' });
    act(() => history.push('/featured-jobs?type=Full-time'));
    expect(navigation.state.location.search).toBe('?type=Full-time');
    expect(navigation.state.loading).toBe(false);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('goes from the error screen to another page, and Back to the error screen tries the remote again', async () => {
    const load = jest.fn((name: RemoteName) =>
      name === 'jobs'
        ? Promise.reject(new RemoteLoadError('jobs', 'down'))
        : Promise.resolve(pageModule(pageNamed(name))),
    );
    const { history } = renderAt('/featured-jobs', { load });
    await screen.findByRole('heading', { name: 'Unexpected Application Error!' });
    act(() => history.push('/employers'));
    expect(await screen.findByRole('heading', { name: 'employers page' })).toBeInTheDocument();
    act(() => history.go(-1));
    expect(await screen.findByRole('heading', { name: 'Unexpected Application Error!' })).toBeInTheDocument();
    expect(load.mock.calls.filter(([name]) => name === 'jobs')).toHaveLength(2);
  });
});

describe('logRouteError', () => {
  beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it('names the remote whose page failed while rendering', () => {
    const error = new Error('boom');
    logRouteError(error, 'jobs');
    expect(console.error).toHaveBeenCalledWith('[shell] Remote "jobs": its page failed while rendering', error);
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
    renderAt('/', { load: () => pending });

    await act(() => jest.advanceTimersByTimeAsync(299));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    await act(() => jest.advanceTimersByTimeAsync(1));
    expect(screen.getByRole('status')).toHaveTextContent('Loading page…');

    await act(async () => resolvePage(pageModule(pageNamed('candidates'))));
    expect(await screen.findByRole('heading', { name: 'candidates page' })).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });
});
