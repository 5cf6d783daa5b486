import { unlessLeaving, watchLeaving, whileLoading } from './pageLeft';

/**
 * A stand-in for the window whose events count as the browser's own (jsdom cannot dispatch a trusted event), and
 * which says which listeners it holds.
 */
function browserWindow() {
  const listeners = new Map<string, Set<(event: Event) => void>>();
  return {
    addEventListener: (type: string, listener: (event: Event) => void) => {
      listeners.set(type, (listeners.get(type) ?? new Set()).add(listener));
    },
    removeEventListener: (type: string, listener: (event: Event) => void) => listeners.get(type)?.delete(listener),
    fire: (type: string) => listeners.get(type)?.forEach((listener) => listener({ isTrusted: true } as Event)),
    listening: (type: string) => (listeners.get(type)?.size ?? 0) > 0,
  } as unknown as Window & { fire: (type: string) => void; listening: (type: string) => boolean };
}

/** A load that stays under way until `end` is called. */
function pendingLoad() {
  let end = () => {};
  const load = new Promise<void>((resolve) => {
    end = resolve;
  });
  return { load: () => load, end: () => end() };
}

describe('whether the visitor is leaving the page', () => {
  afterEach(() => jest.useRealTimers());

  it('tells a failure at once while no navigation has begun', () => {
    const { unlessLeaving } = watchLeaving(browserWindow());
    const report = jest.fn();
    unlessLeaving(report);
    expect(report).toHaveBeenCalledTimes(1);
  });

  it('drops a failure that comes between beforeunload and pagehide: the browser cut the load short', async () => {
    const target = browserWindow();
    const { unlessLeaving, whileLoading } = watchLeaving(target);
    const { load, end } = pendingLoad();
    const loading = whileLoading(load);
    target.fire('beforeunload');
    const report = jest.fn();
    unlessLeaving(report);
    end();
    await loading;
    target.fire('pagehide');
    unlessLeaving(report);
    expect(report).not.toHaveBeenCalled();
  });

  it('holds the failure of a load that started after the navigation began, when the load was due before it', async () => {
    const target = browserWindow();
    const { unlessLeaving, watching, whileLoading } = watchLeaving(target);
    // A prefetch scheduled for when the page is idle: watched from then on, so a reload before it starts is seen.
    const stop = watching();
    expect(target.listening('beforeunload')).toBe(true);
    target.fire('beforeunload');
    // The idle callback runs while the next document is on its way: its loads start, and the browser fails them.
    let fail = (_error: Error) => {};
    const loading = whileLoading(
      () =>
        new Promise((_resolve, reject) => {
          fail = reject;
        }),
    );
    stop();
    stop();
    // The load under way still holds the listener: a second stop took nothing from it.
    expect(target.listening('beforeunload')).toBe(true);
    fail(new TypeError('Load failed'));
    const report = jest.fn();
    await loading.catch(() => unlessLeaving(report));
    target.fire('pagehide');
    expect(report).not.toHaveBeenCalled();
    // Once nothing is due, nothing is listened to (a stop called twice counts once).
    expect(target.listening('beforeunload')).toBe(false);
  });

  it('tells a held failure once the page has stayed: the navigation did not leave (a download, a 204)', () => {
    jest.useFakeTimers();
    const target = browserWindow();
    const { unlessLeaving, whileLoading } = watchLeaving(target, 10_000);
    void whileLoading(pendingLoad().load);
    target.fire('beforeunload');
    const report = jest.fn();
    unlessLeaving(report);
    jest.advanceTimersByTime(9_999);
    expect(report).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(report).toHaveBeenCalledTimes(1);
    // Staying, a later failure is told at once.
    unlessLeaving(report);
    expect(report).toHaveBeenCalledTimes(2);
  });

  it('tells failures again once the back-forward cache shows the page again', () => {
    const target = browserWindow();
    const { unlessLeaving } = watchLeaving(target);
    const report = jest.fn();
    target.fire('pagehide');
    unlessLeaving(report);
    target.fire('pageshow');
    unlessLeaving(report);
    expect(report).toHaveBeenCalledTimes(1);
  });

  it('listens to beforeunload only while a load is under way: the back-forward cache keeps an idle page', async () => {
    const target = browserWindow();
    const { whileLoading } = watchLeaving(target);
    expect(target.listening('beforeunload')).toBe(false);
    const first = pendingLoad();
    const second = pendingLoad();
    const loads = [whileLoading(first.load), whileLoading(second.load)];
    expect(target.listening('beforeunload')).toBe(true);
    first.end();
    await loads[0];
    expect(target.listening('beforeunload')).toBe(true);
    second.end();
    await loads[1];
    expect(target.listening('beforeunload')).toBe(false);
    // A load that fails ends too.
    await expect(whileLoading(() => Promise.reject(new Error('Load failed')))).rejects.toThrow('Load failed');
    expect(target.listening('beforeunload')).toBe(false);
  });

  it("is not so for a pagehide or beforeunload a script dispatched: only the browser's own leaving counts", async () => {
    const { load, end } = pendingLoad();
    const loading = whileLoading(load);
    dispatchEvent(new Event('beforeunload'));
    dispatchEvent(new Event('pagehide'));
    const report = jest.fn();
    unlessLeaving(report);
    expect(report).toHaveBeenCalledTimes(1);
    end();
    await loading;
  });
});
