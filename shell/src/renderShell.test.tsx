import { useId } from 'react';
import { renderToString } from 'react-dom/server';
import { act, screen } from '@testing-library/react';
import { Link, PageRouter, pageIdentifierPrefix } from '@nativegtm/design-system';
import type { PageModule } from '@nativegtm/design-system';
import { renderShell } from './renderShell';
import { pageModule } from './testing/pageModule';

describe('renderShell', () => {
  beforeEach(() => {
    document.body.innerHTML = '<div id="root"></div>';
    window.history.replaceState({}, '', '/employers');
  });

  it('resolves once the first route has settled, not before its page has loaded', async () => {
    let deliver: (page: PageModule) => void = () => undefined;
    const page = new Promise<PageModule>((resolve) => {
      deliver = resolve;
    });
    let settled = false;
    let rendered: Promise<void> = Promise.resolve();

    // React's root is made in a task of its own (a 0 ms timer): a later timer runs after it, so the root is there
    // and only the page is missing.
    await act(async () => {
      rendered = renderShell({ load: () => page, preload: jest.fn(), prefetch: jest.fn() }).then(() => {
        settled = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 10));
    });
    expect(settled).toBe(false);

    await act(async () => {
      deliver(pageModule(() => <h1>Employers page</h1>));
      await rendered;
    });
    expect(settled).toBe(true);
    expect(await screen.findByRole('heading', { name: 'Employers page' })).toBeInTheDocument();
  });

  it("hands the shell's navigation to whoever follows its screens, before the first route settles", async () => {
    const followed: string[] = [];
    await act(async () => {
      void renderShell(
        { load: () => new Promise<PageModule>(() => undefined), preload: jest.fn(), prefetch: jest.fn() },
        { onNavigation: (navigation) => followed.push(navigation.state.location.pathname) },
      );
    });
    expect(followed).toEqual(['/employers']);
  });

  it('needs the #root element of index.html', () => {
    document.body.innerHTML = '';
    expect(() => renderShell({ load: jest.fn(), preload: jest.fn(), prefetch: jest.fn() })).toThrow('#root');
  });
});

describe('renderShell with a page rendered on the server', () => {
  const Page = () => {
    const id = useId();
    return (
      <main id="main-content" aria-labelledby={id}>
        <h1 id={id}>Employers page</h1>
        <Link to="/coming-soon">Coming soon</Link>
      </main>
    );
  };
  const navigator = {
    createHref: (to: string | { pathname?: string }) => (typeof to === 'string' ? to : (to.pathname ?? '')),
    go: () => undefined,
    push: () => undefined,
    replace: () => undefined,
  };

  /** The document as the shell's server composes it: the page's HTML as its remote's build renders it. */
  function serverDocument(build: string) {
    const html = renderToString(
      <PageRouter
        location={{ pathname: '/employers', search: '', hash: '' }}
        navigator={navigator}
        isStatic
        renderedAt={0}
      >
        <Page />
      </PageRouter>,
      { identifierPrefix: pageIdentifierPrefix('employers') },
    );
    document.body.innerHTML =
      `<div id="root"></div><div data-remote="employers" data-build="${build}" data-variant="index" ` +
      `data-rendered-at="0">${html}</div>`;
    window.history.replaceState({}, '', '/employers');
    return document.querySelector('h1');
  }

  beforeEach(() => jest.spyOn(console, 'error'));
  afterEach(() => jest.restoreAllMocks());

  it('keeps the server HTML on screen until the page has loaded, then hydrates those very nodes', async () => {
    const heading = serverDocument('build-1');
    let deliver: (page: PageModule) => void = () => undefined;
    const page = new Promise<PageModule>((resolve) => {
      deliver = resolve;
    });
    await act(async () => {
      void renderShell({ load: () => page, preload: jest.fn(), prefetch: jest.fn() });
    });
    expect(document.querySelector('h1')).toBe(heading);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();

    await act(async () => deliver(pageModule(Page, 'build-1')));
    const hydrated = await screen.findByRole('main', { name: 'Employers page' });
    expect(hydrated.querySelector('h1')).toBe(heading);
    // React owns the nodes now: a client-side link works.
    await act(async () => screen.getByRole('link', { name: 'Coming soon' }).click());
    expect(window.location.pathname).toBe('/coming-soon');
    expect(console.error).not.toHaveBeenCalled();
  });

  it('renders afresh instead of hydrating HTML another build rendered', async () => {
    const heading = serverDocument('build-1');
    await act(async () => {
      await renderShell({ load: async () => pageModule(Page, 'build-2'), preload: jest.fn(), prefetch: jest.fn() });
    });
    const rendered = await screen.findByRole('heading', { name: 'Employers page' });
    expect(rendered).not.toBe(heading);
    expect(screen.getAllByRole('heading', { name: 'Employers page' })).toHaveLength(1);
    expect(console.error).not.toHaveBeenCalled();
  });
});
