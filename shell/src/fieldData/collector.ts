import { onCLS, onFCP, onINP, onLCP, onTTFB, type MetricWithAttribution } from 'web-vitals/attribution';
import {
  FIELD_DATA_PATH,
  FIELD_TOKEN_META,
  OTHER,
  SHELL,
  deviceClass,
  type Beacon,
  type ErrorSource,
  type View,
} from '@nativegtm/contract/fieldData';
import { pageForPath } from '@nativegtm/contract/routes';
import { buildId as shellBuild } from '@nativegtm/design-system/build-id';
import type { RemotesConfig } from '../remotes/remotesConfig';
import { findServerPage } from '../screens/serverPage';
import type { Screen } from '../routing/shellNavigation';
import { codeBases, generateTarget, readTarget, remoteOfError } from './attribution';
import { FieldViews, type ViewRecord } from './fieldViews';
import type { FieldSignal } from './signals';
import { InteractionLog, ShiftLog, type LayoutShiftEntry } from './softVitals';

// The field-data collector: its own chunk, loaded once the first page is on screen and the browser idle
// (signals.ts). It measures every page view of the document with web-vitals' attribution build and sends each view's
// records in one beacon to the site's own origin (@nativegtm/contract/fieldData): when the page is hidden or left, and
// when an in-app navigation ends the view. No cookie, no storage, no visitor id, no URL: the route stands for the page.
//
// Views and in-app navigations. web-vitals measures the document: its LCP, FCP and TTFB are the first view's, and so
// are its INP and CLS up to the first in-app navigation. Reported on every change, a value counts for the first view
// only when the entries behind it (the interaction, the last shift, the paint) came before that navigation. A view
// that began with an in-app navigation gets its INP and CLS from softVitals.ts, which reads the Event Timing and
// layout-shift entries of that view alone, the same way in every browser. web-vitals' `reportSoftNavs` is not used:
// it works only where the browser has the Soft Navigations API (Chromium 151 and later), takes any URL change after a
// click for a navigation (a filter on the same page too), and would make one browser's numbers unlike the others'. So
// LCP, FCP and TTFB are measured for the document's view only.

/** The route of the 404 screen (any path that is not a page's). */
const NOT_FOUND_ROUTE = 'not-found';
/**
 * The shortest Event Timing entries an observer may ask for: a soft view whose interactions were all shorter has no
 * INP (web-vitals falls back to the first input's delay, which only the document's first interaction has).
 */
const EVENT_DURATION_THRESHOLD = 16;

type WebVital = MetricWithAttribution;

/** The vitals web-vitals reports, and when the entries behind the value happened. */
function entryTime(metric: WebVital): number {
  const entries = metric.entries as readonly PerformanceEntry[];
  switch (metric.name) {
    case 'INP':
      return entries[0]?.startTime ?? performance.now();
    case 'CLS':
    case 'LCP':
      return entries.at(-1)?.startTime ?? performance.now();
    default:
      // TTFB and FCP come before anything the visitor does.
      return 0;
  }
}

function attributedTarget(metric: WebVital): string | undefined {
  switch (metric.name) {
    case 'LCP':
      return metric.attribution.target;
    case 'INP':
      return metric.attribution.interactionTarget;
    case 'CLS':
      return metric.attribution.largestShiftTarget;
    default:
      return undefined;
  }
}

/**
 * Who owns the screen, and which build of it runs: the view's labels. Without a screen (the first route never
 * settled), what the document's path and HTML say.
 */
function describeView(pathname: string, screen: Screen | undefined, documentView: boolean): Omit<View, 'seq' | 'nav'> {
  const page = pageForPath(pathname);
  const route = screen?.kind === 'notFound' || !page ? NOT_FOUND_ROUTE : page.route;
  const remote = !screen ? (page?.remote ?? SHELL) : screen.kind === 'notFound' ? SHELL : screen.remote;
  // The document's own page was painted from the server's HTML, rendered by the build the element names.
  const server = documentView ? findServerPage() : undefined;
  let build: string = OTHER;
  if (server?.remote === remote && server.build) build = server.build;
  else if (screen?.kind === 'page') build = screen.module.buildId;
  else if (remote === SHELL) build = shellBuild;
  return { route, remote, build, device: deviceClass(innerWidth) };
}

const sendBeacon = (beacon: Beacon): boolean => {
  try {
    return navigator.sendBeacon(FIELD_DATA_PATH, new Blob([JSON.stringify(beacon)], { type: 'application/json' }));
  } catch {
    return false;
  }
};

/**
 * Observes entries of `type` from the start of the document, where the browser has them; returns what hands over
 * the entries not delivered yet (as the page is hidden, the observer's next callback may never come).
 */
function observe<T extends PerformanceEntry>(
  type: string,
  handle: (entry: T) => void,
  options: PerformanceObserverInit = {},
): (() => void) | undefined {
  if (!globalThis.PerformanceObserver?.supportedEntryTypes?.includes(type)) return undefined;
  const observer = new PerformanceObserver((list) => list.getEntries().forEach((entry) => handle(entry as T)));
  observer.observe({ type, buffered: true, ...options });
  return () => observer.takeRecords().forEach((entry) => handle(entry as T));
}

const whenIdle = (callback: () => void) => {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(callback, { timeout: 2000 });
  else setTimeout(callback, 1000);
};

type SoftLogs = { interactions: InteractionLog; shifts: ShiftLog };

/**
 * Starts measuring: takes the signals kept since the document started, in order, and returns what takes the next
 * ones. `remotes` says where each remote's files are, to tell whose files an error came from.
 */
export function startCollector(
  waiting: readonly FieldSignal[],
  remotes: RemotesConfig | undefined,
  send: (beacon: Beacon) => boolean = sendBeacon,
): (signal: FieldSignal) => void {
  const token = document.querySelector<HTMLMetaElement>(`meta[name="${FIELD_TOKEN_META}"]`)?.content || undefined;
  const views = new FieldViews(token);
  const bases = codeBases(remotes, new URL('/', location.href).href);
  /** Each remote's build, as the page learns it: for the errors of its files. */
  const builds = new Map<string, string>([[SHELL, shellBuild]]);
  const server = findServerPage();
  if (server?.build) builds.set(server.remote, server.build);
  /** INP and CLS of the views that began with an in-app navigation. */
  const soft = new Map<ViewRecord, SoftLogs>();
  /** A remote that failed while the next screen loaded: that screen's view, which begins just after, gets it. */
  let failing: string[] = [];

  const error = (record: ViewRecord | undefined, source: ErrorSource, remote: string) => {
    if (!record) return;
    const build = builds.get(remote);
    views.fail(record, build ? { source, remote, build } : { source, remote });
  };

  function screen(at: number, pathname: string, shown: Screen | undefined): void {
    if (shown?.kind === 'page') builds.set(shown.remote, shown.module.buildId);
    const first = views.all.length === 0;
    const view = describeView(pathname, shown, first);
    const current = views.current();
    // Another route is another view; Try again, or the same page in another state, is not.
    if (!first && (!current || current.view.route === view.route)) return;
    const ended = views.begin(at, view);
    const record = views.current();
    if (record && !first) soft.set(record, { interactions: new InteractionLog(), shifts: new ShiftLog() });
    for (const remote of failing) error(remote === view.remote ? record : ended, 'remote-failure', remote);
    failing = [];
    // Sent once the entries of its last moments (the click that left it) have come in, or as the page is hidden.
    if (ended) {
      whenIdle(() => {
        drain();
        flush(ended);
      });
    }
  }

  function take(signal: FieldSignal): void {
    switch (signal.kind) {
      case 'screen':
        return screen(signal.at, signal.pathname, signal.screen);
      case 'remote-failure':
        // Its own screen's (Try again, a page that failed while rendering), or the next screen's.
        if (views.current()?.view.remote === signal.remote) return error(views.current(), signal.kind, signal.remote);
        failing.push(signal.remote);
        return undefined;
      default:
        return error(views.at(signal.at), signal.kind, remoteOfError(signal.stack, signal.filename, bases));
    }
  }

  // The document's first view, from its first screen; what came before that screen is that view's too.
  const firstScreen = waiting.find((signal) => signal.kind === 'screen');
  screen(0, firstScreen?.pathname ?? location.pathname, firstScreen?.screen);
  for (const signal of waiting) if (signal !== firstScreen) take(signal);

  const report = (metric: WebVital) => {
    const record = views.at(entryTime(metric));
    if (record?.view.seq !== 0) return;
    views.measure(record, metric.name, metric.value, readTarget(attributedTarget(metric)));
  };
  const options = { reportAllChanges: true, generateTarget };
  onTTFB(report, options);
  onFCP(report, options);
  onLCP(report, options);
  onINP(report, options);
  onCLS(report, options);

  /** Hands an entry to the logs of the soft view it happened in. */
  const toSoftView =
    <T extends PerformanceEntry>(add: (logs: SoftLogs, entry: T) => void) =>
    (entry: T) => {
      const record = views.at(entry.startTime);
      const logs = record && soft.get(record);
      if (logs) add(logs, entry);
    };
  const interactions = observe<PerformanceEventTiming>(
    'event',
    toSoftView((logs, entry) => logs.interactions.add(entry)),
    { durationThreshold: EVENT_DURATION_THRESHOLD } as PerformanceObserverInit,
  );
  const shifts = observe<LayoutShiftEntry>(
    'layout-shift',
    toSoftView((logs, entry) => logs.shifts.add(entry)),
  );
  function drain(): void {
    interactions?.();
    shifts?.();
  }

  function flush(record: ViewRecord): void {
    const logs = soft.get(record);
    if (logs) {
      const inp = logs.interactions.inp();
      if (inp) views.measure(record, 'INP', inp.value, inp.target);
      // A browser without layout-shift entries (Firefox, WebKit) measures no CLS, rather than a CLS of 0.
      const cls = logs.shifts.cls();
      if (shifts) views.measure(record, 'CLS', cls.value, cls.target);
    }
    views.flush(record, send);
  }

  function flushAll(): void {
    drain();
    for (const remote of failing) error(views.current(), 'remote-failure', remote);
    failing = [];
    views.all.forEach(flush);
  }

  // On the document: web-vitals' listeners, on the window in the capture phase, run before it and report INP and CLS
  // as the page is hidden, for this to send them.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flushAll();
  });
  addEventListener('pagehide', flushAll);
  // Loaded while the page was hidden (a tab in the background once idle): no event will say so.
  if (document.visibilityState === 'hidden') flushAll();

  return take;
}
