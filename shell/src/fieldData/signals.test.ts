import { SAMPLE_RATE_META } from '@nativegtm/contract/fieldData';
import type { Screen } from '../routing/shellNavigation';
import type { FieldSignal } from './signals';

const startCollector = jest.fn((_waiting: FieldSignal[], _remotes: unknown) => collector);
const collector = jest.fn();
jest.mock('./collector', () => ({ startCollector: (...args: [FieldSignal[], unknown]) => startCollector(...args) }));
const remotes = {
  entries: { jobs: 'http://localhost:3003/mf-manifest.json' },
  integrity: {},
  devServers: {},
  problems: [],
};
jest.mock('../remotes/remotesConfig', () => ({ getRemotesConfig: () => Promise.resolve(remotes) }));

type Signals = typeof import('./signals');

/** A fresh copy of the module: its state is the document's. */
function load(): Signals {
  let signals!: Signals;
  jest.isolateModules(() => {
    signals = jest.requireActual('./signals');
  });
  return signals;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('before the collector', () => {
  let idle: (() => void)[];
  const listeners: [string, EventListener][] = [];
  const addEventListener = window.addEventListener.bind(window);

  beforeEach(() => {
    idle = [];
    window.requestIdleCallback = ((callback: () => void) => idle.push(callback)) as typeof requestIdleCallback;
    jest.spyOn(window, 'addEventListener').mockImplementation((type, listener, options) => {
      listeners.push([type, listener as EventListener]);
      addEventListener(type, listener, options);
    });
    startCollector.mockClear();
    collector.mockClear();
  });
  afterEach(() => {
    for (const [type, listener] of listeners.splice(0)) window.removeEventListener(type, listener);
    jest.restoreAllMocks();
    document.head.innerHTML = '';
  });

  /** Loads the collector as the shell does, once idle after the first route. */
  async function collect(signals: Signals): Promise<void> {
    signals.collectWhenIdle(Promise.resolve());
    await settle();
    idle.splice(0).forEach((callback) => callback());
    await settle();
  }

  const throwIn = (filename: string, error: unknown) =>
    window.dispatchEvent(new ErrorEvent('error', { message: 'boom', filename, error }));
  const reject = (reason: unknown) =>
    window.dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason, promise: Promise.resolve() }));

  it('keeps uncaught errors and unhandled rejections, with where they came from, and hands them over in order', async () => {
    const signals = load();
    signals.startFieldData(0.5);
    const error = new Error('remote broke');
    error.stack = 'Error: remote broke\n    at x (http://localhost:3003/1.js:1:1)';
    throwIn('http://localhost:3003/1.js', error);
    reject(new TypeError('no'));
    reject('a reason that is not an Error');
    signals.fieldSignal({ kind: 'remote-failure', remote: 'employers' });
    await collect(signals);
    expect(startCollector).toHaveBeenCalledTimes(1);
    const [waiting, config] = startCollector.mock.calls[0]!;
    expect(config).toBe(remotes);
    expect(waiting).toEqual([
      { kind: 'error', at: expect.any(Number), stack: error.stack, filename: 'http://localhost:3003/1.js' },
      {
        kind: 'rejection',
        at: expect.any(Number),
        stack: expect.stringContaining('TypeError: no'),
        filename: undefined,
      },
      { kind: 'rejection', at: expect.any(Number), stack: undefined, filename: undefined },
      { kind: 'remote-failure', at: expect.any(Number), remote: 'employers' },
    ]);
    // From then on, straight to the collector.
    throwIn('http://localhost:3000/main.js', null);
    expect(collector).toHaveBeenCalledWith(
      expect.objectContaining({ kind: 'error', filename: 'http://localhost:3000/main.js' }),
    );
  });

  it('keeps a bounded number of signals for a page that throws in a loop', async () => {
    const signals = load();
    signals.startFieldData(0);
    for (let index = 0; index < 500; index += 1) throwIn('http://localhost:3000/main.js', new Error(String(index)));
    await collect(signals);
    expect(startCollector.mock.calls[0]![0]).toHaveLength(64);
  });

  it('tells which screen is shown, once per screen: the same screen in another state is not another', async () => {
    const signals = load();
    signals.startFieldData(0);
    const page: Screen = {
      kind: 'page',
      remote: 'jobs',
      module: { default: () => null, meta: { title: 't', description: 'd' }, buildId: 'b' },
    };
    const notFound: Screen = { kind: 'notFound' };
    let listener = () => undefined as void;
    const navigation = {
      state: { screen: undefined as Screen | undefined, location: { pathname: '/featured-jobs' } },
      subscribe: (next: () => void) => {
        listener = next;
        return () => undefined;
      },
    };
    signals.watchScreens(navigation as never);
    navigation.state = { screen: page, location: { pathname: '/featured-jobs' } };
    listener();
    navigation.state = { screen: page, location: { pathname: '/featured-jobs' } };
    listener();
    navigation.state = { screen: notFound, location: { pathname: '/nope' } };
    listener();
    await collect(signals);
    expect(startCollector.mock.calls[0]![0]).toEqual([
      { kind: 'screen', at: expect.any(Number), pathname: '/featured-jobs', screen: page },
      { kind: 'screen', at: expect.any(Number), pathname: '/nope', screen: notFound },
    ]);
  });

  it('loads nothing, keeps nothing and listens to nothing at a sample rate of 0', async () => {
    document.head.innerHTML = `<meta name="${SAMPLE_RATE_META}" content="0">`;
    const signals = load();
    signals.startFieldData(0);
    expect(listeners).toEqual([]);
    const subscribe = jest.fn();
    signals.watchScreens({ state: { screen: undefined } as never, subscribe });
    expect(subscribe).not.toHaveBeenCalled();
    await collect(signals);
    expect(idle).toEqual([]);
    expect(startCollector).not.toHaveBeenCalled();
  });

  it('measures nothing in a browser that overrides a remote with a dev server', async () => {
    document.cookie = 'nativegtm_override_notice=jobs@http://localhost:3103';
    try {
      const signals = load();
      signals.startFieldData(0);
      expect(listeners).toEqual([]);
      await collect(signals);
      expect(startCollector).not.toHaveBeenCalled();
    } finally {
      document.cookie = 'nativegtm_override_notice=; max-age=0';
    }
  });

  it('measures a share of documents: the draw decides', async () => {
    document.head.innerHTML = `<meta name="${SAMPLE_RATE_META}" content="0.25">`;
    const measured = load();
    measured.startFieldData(0.1);
    await collect(measured);
    expect(startCollector).toHaveBeenCalledTimes(1);
    const unmeasured = load();
    unmeasured.startFieldData(0.3);
    await collect(unmeasured);
    expect(startCollector).toHaveBeenCalledTimes(1);
  });

  it('waits for the first route and the document before it waits for idle time', async () => {
    const signals = load();
    signals.startFieldData(0);
    let settleFirstRoute!: () => void;
    signals.collectWhenIdle(new Promise<void>((resolve) => (settleFirstRoute = resolve)));
    await settle();
    expect(idle).toEqual([]);
    settleFirstRoute();
    await settle();
    expect(idle).toHaveLength(1);
    expect(startCollector).not.toHaveBeenCalled();
  });
});
