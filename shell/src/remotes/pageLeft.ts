// Whether the visitor is leaving this page (a reload, a link to another site, the tab closed). The browser then aborts
// the fetches under way (WebKit rejects them with "Load failed", Firefox with "NetworkError"): a remote whose files
// were still coming is not down, and none of its files was refused, so nothing is logged or reported for it.
//
// Firefox and WebKit abort them as soon as the navigation starts, right after beforeunload, while pagehide waits
// until the next document answers: measured in both, a fetch rejected 4 ms after beforeunload and 1.5 s before
// pagehide, for a document that took 1.5 s. So a failure after a beforeunload is held: dropped at pagehide, or told
// once the page has stayed LEAVING_MS (a navigation that did not leave: a download, a 204). beforeunload is listened
// to only while a load is under way, or one is due (`watching`: the prefetch the page schedules for when it is idle,
// which may start after the navigation began, when a fetch fails at once): in Firefox a page with that listener is not
// kept in the back-forward cache (one with a load under way is not kept anyway). A page the back-forward cache shows
// again is not being left any more.
//
// The limits: a next document that takes longer than LEAVING_MS to answer has the held failures told after all (a
// false report, rare rather than impossible); Safari on iOS fires no beforeunload, so there only pagehide counts; and
// a page the back-forward cache shows again may keep the error screen of a load it cut short (Try again loads it).
//
// Only the browser's own events count: a script on the page that dispatches a pagehide or beforeunload of its own
// must not silence the reports of refused files.

/** How long a page that began to navigate away may still be here before the failures held meanwhile are told. */
const LEAVING_MS = 10_000;

type Listening = Pick<Window, 'addEventListener' | 'removeEventListener'>;

/** The page's leaving, watched on `target` (the window, or a stand-in for tests). */
export function watchLeaving(target: Listening, leavingMs = LEAVING_MS) {
  let left = false;
  let leaving: ReturnType<typeof setTimeout> | undefined;
  let held: (() => void)[] = [];
  let loads = 0;

  const stayed = () => {
    leaving = undefined;
    const reports = held;
    held = [];
    reports.forEach((report) => report());
  };
  const beforeUnload = (event: Event) => {
    if (!event.isTrusted) return;
    clearTimeout(leaving);
    leaving = setTimeout(stayed, leavingMs);
  };
  target.addEventListener('pagehide', (event) => {
    if (!event.isTrusted) return;
    left = true;
    clearTimeout(leaving);
    leaving = undefined;
    held = [];
  });
  target.addEventListener('pageshow', (event) => {
    if (event.isTrusted) left = false;
  });

  /**
   * Watches for a navigation from now until the function it returns is called (once): around a load, or from when a
   * load is scheduled until it has started.
   */
  const watching = (): (() => void) => {
    if (loads === 0) target.addEventListener('beforeunload', beforeUnload);
    loads += 1;
    let stopped = false;
    return () => {
      if (stopped) return;
      stopped = true;
      loads -= 1;
      if (loads === 0) target.removeEventListener('beforeunload', beforeUnload);
    };
  };

  return {
    /** Runs `report` now, or once the page has stayed, or never if the visitor has left. */
    unlessLeaving(report: () => void): void {
      if (left) return;
      if (leaving === undefined) report();
      else held.push(report);
    },
    watching,
    /** Runs a load whose failure is reported, with the page watching for a navigation while it is under way. */
    async whileLoading<T>(load: () => Promise<T>): Promise<T> {
      const stop = watching();
      try {
        return await load();
      } finally {
        stop();
      }
    },
  };
}

export const { unlessLeaving, watching, whileLoading } = watchLeaving(window);
