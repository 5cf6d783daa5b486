import { IDLE_PREFETCH_MARK, prefetchLikelyPages } from './prefetchPages';
import { watching } from './pageLeft';

jest.mock('./pageLeft', () => {
  const mockStop = jest.fn();
  return { watching: jest.fn(() => mockStop) };
});
const stopWatching = (watching as jest.Mock).getMockImplementation()!() as jest.Mock;

function links(html: string): void {
  document.body.innerHTML = html;
}

describe('prefetchLikelyPages', () => {
  let preload: jest.Mock;
  let idle: (() => void) | undefined;
  const mark = jest.fn();
  let settleFirstRoute: () => void;

  /** The idle callback, once the first route has settled (the document of jsdom has loaded already). */
  async function idleAfterFirstRoute(): Promise<() => void> {
    settleFirstRoute();
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (!idle) throw new Error('no idle callback was scheduled');
    return idle;
  }

  beforeAll(() => {
    // One set of listeners for the whole file: each call adds its own to the document.
    window.requestIdleCallback = ((callback: () => void) => {
      idle = callback;
      return 1;
    }) as typeof window.requestIdleCallback;
    Object.defineProperty(performance, 'mark', { configurable: true, value: mark });
    preload = jest.fn();
    const firstRouteSettled = new Promise<void>((resolve) => {
      settleFirstRoute = resolve;
    });
    prefetchLikelyPages({ preload: (remote) => preload(remote) }, firstRouteSettled);
  });
  beforeEach(() => {
    stopWatching.mockClear();
    preload.mockClear();
    mark.mockClear();
    window.history.replaceState({}, '', '/');
  });

  it('loads the page behind a link of this site when the pointer moves over it or it gets focus', () => {
    links('<a href="/employers">Employers</a> <a href="/featured-jobs"><span>Jobs</span></a>');
    document.querySelector('a')!.dispatchEvent(new Event('pointerover', { bubbles: true }));
    expect(preload).toHaveBeenLastCalledWith('employers');
    document.querySelector('span')!.dispatchEvent(new Event('pointerover', { bubbles: true }));
    expect(preload).toHaveBeenLastCalledWith('jobs');
    document.querySelector('a')!.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    expect(preload).toHaveBeenCalledTimes(3);
  });

  it('ignores other sites, downloads, unknown paths and what is not a link', () => {
    links(
      '<a href="https://example.com/employers">x</a><a href="/employers" download>y</a>' +
        '<a href="/no-such-page">z</a><p>text</p>',
    );
    for (const element of document.body.children) {
      element.dispatchEvent(new Event('pointerover', { bubbles: true }));
    }
    expect(preload).not.toHaveBeenCalled();
  });

  it('waits for the first route to settle before it waits for idle time (the first page brings the links)', async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(idle).toBeUndefined();
    await idleAfterFirstRoute();
    expect(idle).toBeDefined();
  });

  it('once idle after the load, loads the pages the current page links to, and marks when it started', async () => {
    links('<a href="/">Home</a><a href="/employers">Employers</a><a href="/coming-soon">Soon</a><a href="/x">?</a>');
    // Watched for a navigation from the start until the loads have started: a reload in between cuts them short.
    expect(watching).toHaveBeenCalledTimes(1);
    const callback = await idleAfterFirstRoute();
    expect(stopWatching).not.toHaveBeenCalled();
    preload.mockImplementation(() => expect(stopWatching).not.toHaveBeenCalled());
    callback();
    expect(preload.mock.calls.map(([remote]) => remote)).toEqual(['employers', 'comingSoon']);
    expect(stopWatching).toHaveBeenCalled();
    expect(mark).toHaveBeenCalledWith(IDLE_PREFETCH_MARK);
  });

  it('does not prefetch while idle when the visitor asks to save data', async () => {
    Object.defineProperty(navigator, 'connection', { configurable: true, value: { saveData: true } });
    try {
      links('<a href="/employers">Employers</a>');
      (await idleAfterFirstRoute())();
      expect(preload).not.toHaveBeenCalled();
      expect(mark).not.toHaveBeenCalled();
      // Nothing held for a prefetch that does not run.
      expect(stopWatching).toHaveBeenCalled();
    } finally {
      Reflect.deleteProperty(navigator, 'connection');
    }
  });
});
