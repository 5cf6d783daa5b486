import { getRemotesConfig } from '../remotes/remotesConfig';
import { overridden } from '../remotes/overridden';
import type { Screen, ShellNavigation } from '../routing/shellNavigation';
import { whenIdleAfter } from '../tasks';
import { sampled, sampleRate } from './sampling';

// The part of field data that is in the shell's main bundle, kept small: it decides whether this document is measured
// and, if it is, keeps what happens before the collector (its own chunk, with web-vitals) loads once the page is on
// screen and the browser idle. Performance entries need no keeping (web-vitals observes them with `buffered`); errors,
// remote failures and the screens shown do.

/** What the shell tells the collector, stamped with the time it happened (performance.now()). */
export type FieldSignal =
  | { kind: 'error' | 'rejection'; at: number; stack: string | undefined; filename: string | undefined }
  | { kind: 'remote-failure'; at: number; remote: string }
  | { kind: 'screen'; at: number; pathname: string; screen: Screen };

type Unstamped<T> = T extends unknown ? Omit<T, 'at'> : never;
type Collector = (signal: FieldSignal) => void;

/** What waits for the collector at most: a few screens and errors; a page that throws in a loop adds no more. */
const MAX_WAITING = 64;

/** Not measured (undefined), waiting for the collector (the signals so far), or the collector. */
let sink: FieldSignal[] | Collector | undefined;

/** Tells the collector, or keeps it for the collector; nothing when this document is not measured. */
export function fieldSignal(signal: Unstamped<FieldSignal>): void {
  const stamped = { ...signal, at: performance.now() } as FieldSignal;
  if (typeof sink === 'function') sink(stamped);
  else if (sink && sink.length < MAX_WAITING) sink.push(stamped);
}

/** Where the error came from: its stack (where it was thrown) and, for an ErrorEvent, the script's URL. */
const origin = (error: unknown, filename?: string) => ({
  stack: typeof (error as Error | null)?.stack === 'string' ? (error as Error).stack : undefined,
  filename: filename || undefined,
});

/**
 * Decides, once per document, whether its page views are measured; if so, starts keeping uncaught errors and
 * unhandled rejections from now on. The first thing the shell's bundle runs, so that its own errors are kept too. A
 * browser that overrides a remote with a dev server is never measured: its pages say nothing of the site (its server
 * drops what such a page would send anyway).
 */
export function startFieldData(random?: number): void {
  if (overridden() || !sampled(sampleRate(), random)) return;
  sink = [];
  addEventListener('error', (event) => fieldSignal({ kind: 'error', ...origin(event.error, event.filename) }));
  addEventListener('unhandledrejection', (event) => fieldSignal({ kind: 'rejection', ...origin(event.reason) }));
}

/** Tells the collector which screen is shown, each time another one is (a filter on the same page is not another). */
export function watchScreens(navigation: Pick<ShellNavigation, 'state' | 'subscribe'>): void {
  if (!sink) return;
  let shown: Screen | undefined;
  const follow = () => {
    const { screen, location } = navigation.state;
    if (!screen || screen === shown) return;
    shown = screen;
    fieldSignal({ kind: 'screen', pathname: location.pathname, screen });
  };
  navigation.subscribe(follow);
  follow();
}

/** The first largest-contentful-paint entry; at once where the browser has none to give (WebKit). */
const firstLargestPaint = () =>
  new Promise<void>((resolve) => {
    if (!globalThis.PerformanceObserver?.supportedEntryTypes?.includes('largest-contentful-paint')) return resolve();
    new PerformanceObserver((_, observer) => {
      observer.disconnect();
      resolve();
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  });

/**
 * Loads the collector, when this document is measured, once the page has painted its largest content, the document
 * has loaded, the first route has settled and the browser is idle: it costs the page nothing before that. It then
 * takes what was kept.
 */
export function collectWhenIdle(firstRouteSettled: Promise<unknown>): void {
  if (!sink) return;
  whenIdleAfter([firstRouteSettled, firstLargestPaint()], () => {
    // remotes.json, read for the first page already, says whose files an error came from.
    const remotes = getRemotesConfig().catch(() => undefined);
    Promise.all([import(/* webpackChunkName: "field-data" */ './collector'), remotes]).then(
      ([{ startCollector }, config]) => {
        sink = startCollector(sink as FieldSignal[], config);
      },
      // Without its chunk (a deploy removed it, the network dropped) there is nothing to keep signals for.
      () => {
        sink = undefined;
      },
    );
  });
}
