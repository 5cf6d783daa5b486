import { FIELD_DATA_PATH, FIELD_TOKEN_META, parseBeacon, type Beacon } from '@nativegtm/contract/fieldData';
import type { PageModule } from '@nativegtm/design-system';
import type { Screen } from '../routing/shellNavigation';
import { generateTarget } from './attribution';
import { startCollector } from './collector';
import type { FieldSignal } from './signals';

type Report = (metric: Record<string, unknown>) => void;
const webVitals = new Map<string, { report: Report; options: Record<string, unknown> }>();
jest.mock('web-vitals/attribution', () => {
  const on = (name: string) => (report: Report, options: Record<string, unknown>) =>
    webVitals.set(name, { report, options });
  return { onCLS: on('CLS'), onFCP: on('FCP'), onINP: on('INP'), onLCP: on('LCP'), onTTFB: on('TTFB') };
});

/** web-vitals reporting a value, with the entries behind it and its attribution. */
function report(name: string, value: number, entries: { startTime: number }[] = [], attribution: object = {}): void {
  webVitals.get(name)!.report({ name, value, entries, attribution });
}

/** The browser's performance observers: entries are handed to them by type. */
const observers = new Map<string, (entries: PerformanceEntry[]) => void>();
class FakeObserver {
  static supportedEntryTypes = ['event', 'layout-shift'];
  constructor(private readonly callback: (list: { getEntries: () => PerformanceEntry[] }) => void) {}
  observe({ type }: { type: string }) {
    observers.set(type, (entries) => this.callback({ getEntries: () => entries }));
  }
  takeRecords() {
    return [];
  }
}
const observed = (type: string, entries: object[]) => observers.get(type)!(entries as PerformanceEntry[]);

const pageOf = (buildId: string): PageModule => ({
  default: () => null,
  meta: { title: 't', description: 'd' },
  buildId,
});
const jobsPage: Screen = { kind: 'page', remote: 'jobs', module: pageOf('srv-1') };
const employersPage: Screen = { kind: 'page', remote: 'employers', module: pageOf('emp-2') };
const screen = (at: number, pathname: string, shown: Screen): FieldSignal => ({
  kind: 'screen',
  at,
  pathname,
  screen: shown,
});
const remotes = {
  entries: {
    jobs: 'http://localhost:3003/mf-manifest.json',
    employers: 'http://localhost:3002/mf-manifest.json',
  },
  integrity: {},
  devServers: {},
  problems: [],
};

describe('the collector', () => {
  let beacons: Beacon[];
  let idle: (() => void)[];
  const listeners: [string, EventListener][] = [];
  const documentListeners: [string, EventListener][] = [];
  const addEventListener = window.addEventListener.bind(window);
  const addDocumentListener = document.addEventListener.bind(document);
  let visibility: DocumentVisibilityState;

  const send = (beacon: Beacon) => {
    beacons.push(JSON.parse(JSON.stringify(beacon)) as Beacon);
    return true;
  };
  const hide = () => {
    visibility = 'hidden';
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
  };

  beforeEach(() => {
    beacons = [];
    idle = [];
    visibility = 'visible';
    webVitals.clear();
    observers.clear();
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
    Object.defineProperty(window, 'PerformanceObserver', { configurable: true, value: FakeObserver });
    window.requestIdleCallback = ((callback: () => void) => idle.push(callback)) as typeof requestIdleCallback;
    jest.spyOn(window, 'addEventListener').mockImplementation((type, listener, options) => {
      listeners.push([type, listener as EventListener]);
      addEventListener(type, listener, options);
    });
    jest.spyOn(document, 'addEventListener').mockImplementation((type, listener, options) => {
      documentListeners.push([type, listener as EventListener]);
      addDocumentListener(type, listener, options);
    });
    window.history.replaceState({}, '', '/featured-jobs?function=sales');
    document.head.innerHTML = '';
    document.body.innerHTML =
      '<div id="root"><div class="progress"></div><div data-page-slot="jobs"></div></div>' +
      '<div data-remote="jobs" data-build="srv-1" data-variant="index"><main><img class="hero"><h1>Jobs</h1>' +
      '<button class="apply">Apply</button></main></div>';
  });
  afterEach(() => {
    for (const [type, listener] of listeners.splice(0)) window.removeEventListener(type, listener);
    for (const [type, listener] of documentListeners.splice(0)) document.removeEventListener(type, listener);
    jest.restoreAllMocks();
    Reflect.deleteProperty(document, 'visibilityState');
    Reflect.deleteProperty(window, 'PerformanceObserver');
  });

  it("measures the document's view with web-vitals' attribution build, and sends it in one beacon when hidden", () => {
    document.head.innerHTML = `<meta name="${FIELD_TOKEN_META}" content="0123456789abcdef.1790000000.canary:jobs.fedcba9876543210.mwz1k0.${'a'.repeat(43)}">`;
    startCollector([screen(300, '/featured-jobs', jobsPage)], remotes, send);
    expect([...webVitals.values()].map(({ options }) => options)).toEqual(
      Array(5).fill({ reportAllChanges: true, generateTarget }),
    );
    const img = document.querySelector('img')!;
    report('TTFB', 35.04);
    report('FCP', 410);
    report('LCP', 3000, [{ startTime: 900 }], { target: generateTarget(img) });
    report('LCP', 4200, [{ startTime: 1200 }], { target: generateTarget(img) });
    report('INP', 620, [{ startTime: 5000 }], { interactionTarget: generateTarget(document.querySelector('button')) });
    report('CLS', 0.02, [{ startTime: 700 }], { largestShiftTarget: generateTarget(document.querySelector('h1')) });
    expect(beacons).toEqual([]);
    hide();
    expect(beacons).toEqual([
      {
        v: 1,
        token: `0123456789abcdef.1790000000.canary:jobs.fedcba9876543210.mwz1k0.${'a'.repeat(43)}`,
        first: true,
        // No query: the route stands for the page. jsdom's window is 1024 px wide.
        view: { seq: 0, route: '/featured-jobs', remote: 'jobs', build: 'srv-1', nav: 'document', device: 'desktop' },
        vitals: [
          { name: 'TTFB', value: 35 },
          { name: 'FCP', value: 410 },
          { name: 'LCP', value: 4200, target: 'html>body>div>main>img.hero', targetRemote: 'jobs' },
          { name: 'INP', value: 620, target: 'html>body>div>main>button.apply', targetRemote: 'jobs' },
          { name: 'CLS', value: 0.02 },
        ],
        errors: [],
      },
    ]);
    expect(parseBeacon(JSON.stringify(beacons[0]))).toEqual(beacons[0]);
  });

  it('sends with navigator.sendBeacon, JSON to the site itself', async () => {
    const sendBeacon = jest.fn((_url: string, _body?: BodyInit | null) => true);
    Object.defineProperty(navigator, 'sendBeacon', { configurable: true, value: sendBeacon });
    try {
      startCollector([screen(0, '/featured-jobs', jobsPage)], remotes);
      hide();
      const [url, body] = sendBeacon.mock.calls[0]!;
      expect(url).toBe(FIELD_DATA_PATH);
      expect((body as Blob).type).toBe('application/json');
      const text = await new Promise<string>((resolve) => {
        const reader = new FileReader();
        reader.onload = () => resolve(String(reader.result));
        reader.readAsText(body as Blob);
      });
      expect(JSON.parse(text)).toMatchObject({ v: 1, first: true, view: { seq: 0 } });
    } finally {
      Reflect.deleteProperty(navigator, 'sendBeacon');
    }
  });

  it('sends when the page is left (pagehide), and only what is new the next time', () => {
    startCollector([screen(0, '/featured-jobs', jobsPage)], remotes, send);
    report('TTFB', 20);
    window.dispatchEvent(new Event('pagehide'));
    expect(beacons).toEqual([expect.objectContaining({ first: true, vitals: [{ name: 'TTFB', value: 20 }] })]);
    report('TTFB', 25);
    report('CLS', 0, []);
    hide();
    expect(beacons[1]).toEqual(expect.objectContaining({ first: false, vitals: [{ name: 'CLS', value: 0 }] }));
  });

  it('makes each in-app navigation a new view, with its own INP and CLS', () => {
    const take = startCollector([screen(250, '/featured-jobs', jobsPage)], remotes, send);
    report('TTFB', 30);
    // The click that leaves the page is the first view's.
    report('INP', 96, [{ startTime: 4000 }]);
    take(screen(4100, '/employers', employersPage));
    // web-vitals' document-wide values from after the navigation are not the first view's.
    report('INP', 800, [{ startTime: 6000 }]);
    report('CLS', 0.3, [{ startTime: 6500 }]);
    report('LCP', 5000, [{ startTime: 4200 }]);
    // The ended view goes out once idle.
    expect(beacons).toEqual([]);
    idle.splice(0).forEach((callback) => callback());
    expect(beacons).toEqual([
      {
        v: 1,
        first: true,
        view: { seq: 0, route: '/featured-jobs', remote: 'jobs', build: 'srv-1', nav: 'document', device: 'desktop' },
        vitals: [
          { name: 'TTFB', value: 30 },
          { name: 'INP', value: 96 },
        ],
        errors: [],
      },
    ]);
    // The second view's page, rendered in the browser.
    document.querySelector('[data-page-slot]')!.outerHTML =
      '<div data-page-slot="employers"><main><button class="cta">Hire</button></main></div>';
    const cta = document.querySelector('.cta')!;
    observed('event', [
      { interactionId: 7, duration: 40, startTime: 3990, target: null },
      { interactionId: 8, duration: 640, startTime: 6000, target: cta },
      { interactionId: 9, duration: 120, startTime: 7000, target: cta },
    ]);
    observed('layout-shift', [
      { startTime: 4000, value: 0.5, hadRecentInput: false, sources: [] },
      { startTime: 6500, value: 0.3, hadRecentInput: false, sources: [{ node: document.querySelector('.progress') }] },
      { startTime: 6600, value: 0.2, hadRecentInput: true, sources: [] },
    ]);
    hide();
    expect(beacons.slice(1)).toEqual([
      {
        v: 1,
        first: true,
        view: {
          seq: 1,
          route: '/employers',
          remote: 'employers',
          build: 'emp-2',
          nav: 'navigation',
          device: 'desktop',
        },
        vitals: [
          { name: 'INP', value: 640, target: '#root>div>main>button.cta', targetRemote: 'employers' },
          { name: 'CLS', value: 0.3, target: '#root>div.progress', targetRemote: 'shell' },
        ],
        errors: [],
      },
    ]);
  });

  it('keeps the same view for the same page in another state, and for Try again', () => {
    const take = startCollector([screen(0, '/featured-jobs', { kind: 'error', remote: 'jobs' })], remotes, send);
    take(screen(100, '/featured-jobs', jobsPage));
    take(screen(200, '/Featured-Jobs/', jobsPage));
    hide();
    expect(beacons.map(({ view }) => view.seq)).toEqual([0]);
  });

  it("names the 404 screen's view 'not-found', the shell's", () => {
    const take = startCollector([screen(0, '/featured-jobs', jobsPage)], remotes, send);
    take(screen(2000, '/no-such-page', { kind: 'notFound' }));
    hide();
    expect(beacons[1]?.view).toEqual({
      seq: 1,
      route: 'not-found',
      remote: 'shell',
      build: 'development',
      nav: 'navigation',
      device: 'desktop',
    });
  });

  it('gives CLS to no view where the browser has no layout-shift entries (Firefox, WebKit)', () => {
    FakeObserver.supportedEntryTypes = ['event'];
    try {
      const take = startCollector([screen(0, '/featured-jobs', jobsPage)], remotes, send);
      take(screen(2000, '/employers', employersPage));
      hide();
      expect(beacons.map(({ view, vitals }) => [view.seq, vitals])).toEqual([
        [0, []],
        [1, []],
      ]);
    } finally {
      FakeObserver.supportedEntryTypes = ['event', 'layout-shift'];
    }
  });

  it('counts errors in the view they happened in, by the remote whose files threw, with its build', () => {
    const take = startCollector(
      [
        // Before the first screen: the first view's.
        {
          kind: 'rejection',
          at: 50,
          stack: `TypeError: x\n    at y (${location.origin}/main.js:1:1)`,
          filename: undefined,
        },
        screen(300, '/featured-jobs', jobsPage),
        { kind: 'error', at: 400, stack: undefined, filename: 'http://localhost:3003/412.0123456789.js' },
      ],
      remotes,
      send,
    );
    take(screen(1000, '/employers', employersPage));
    take({
      kind: 'error',
      at: 1200,
      stack: `Error: z\n    at onClick (http://localhost:3002/9.js:1:5)\n    at d (${location.origin}/470.js:2:2)`,
      filename: `${location.origin}/470.js`,
    });
    take({ kind: 'error', at: 1300, stack: undefined, filename: undefined });
    hide();
    expect(beacons.map(({ view, errors }) => [view.seq, errors])).toEqual([
      [
        0,
        [
          { source: 'rejection', remote: 'shell', build: 'development' },
          { source: 'error', remote: 'jobs', build: 'srv-1' },
        ],
      ],
      [
        1,
        [
          { source: 'error', remote: 'employers', build: 'emp-2' },
          // No file of the site named: the shell's.
          { source: 'error', remote: 'shell', build: 'development' },
        ],
      ],
    ]);
  });

  it("counts a remote's failure in the view of the screen it failed to show, or of its own page", () => {
    const take = startCollector([screen(0, '/featured-jobs', jobsPage)], remotes, send);
    // Navigating to /employers: its remote fails to load, then the error screen shows.
    take({ kind: 'remote-failure', at: 900, remote: 'employers' });
    take(screen(1000, '/employers', { kind: 'error', remote: 'employers' }));
    // Try again fails too: the same view.
    take({ kind: 'remote-failure', at: 3000, remote: 'employers' });
    hide();
    expect(beacons.map(({ view, errors }) => [view.seq, view.build, errors])).toEqual([
      [0, 'srv-1', []],
      [
        1,
        'other',
        [
          { source: 'remote-failure', remote: 'employers' },
          { source: 'remote-failure', remote: 'employers' },
        ],
      ],
    ]);
  });

  it('sends errors after a flush in a later beacon of the same view', () => {
    const take = startCollector([screen(0, '/featured-jobs', jobsPage)], remotes, send);
    hide();
    take({ kind: 'error', at: 5000, stack: undefined, filename: 'http://localhost:3003/1.js' });
    window.dispatchEvent(new Event('pagehide'));
    expect(beacons.map(({ first, errors }) => [first, errors.length])).toEqual([
      [true, 0],
      [false, 1],
    ]);
  });
});
