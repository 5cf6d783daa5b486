import { useCallback, useEffect, useLayoutEffect, useRef } from 'react';
import { NavigationType, type Location } from 'react-router-dom';
import type { ShellHistory } from './history';

const STORAGE_KEY = 'nativegtm:scroll-positions';

export interface ScrollInputs {
  history: ShellHistory;
  /** The location on screen. */
  location: Location;
  action: NavigationType;
  preventScrollReset: boolean;
}

function readPositions(): Record<string, number> {
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}');
    if (stored && typeof stored === 'object' && !Array.isArray(stored)) {
      return Object.fromEntries(Object.entries(stored).filter(([, y]) => typeof y === 'number' && Number.isFinite(y)));
    }
  } catch {
    // Storage blocked, or a value this code did not write.
  }
  return {};
}

/** The element a #hash names, if any (a malformed one, like #100%, names none). */
function hashTarget(hash: string): HTMLElement | null {
  try {
    const id = decodeURIComponent(hash.slice(1));
    return id ? document.getElementById(id) : null;
  } catch {
    return null;
  }
}

function scrollToHash(hash: string): boolean {
  const target = hashTarget(hash);
  target?.scrollIntoView();
  return target !== null;
}

/**
 * Where the window scrolls after client-side navigation, as visitors expect from full page loads: the top of a new
 * page (or its #hash), the old position on Back and Forward and after a reload, and no jump when the navigation asked
 * to keep it (the Featured Jobs filters). Positions are remembered per history entry, for the tab's life.
 *
 * A page renders in a React root of its own, after the shell's commit: a position further down than the page on
 * screen is long, or a #hash in it, is applied again once the page reports it has rendered that location (the
 * returned callback).
 */
export function useScrollRestoration({
  history,
  location,
  action,
  preventScrollReset,
}: ScrollInputs): (renderedKey: string | undefined) => void {
  const positions = useRef<Record<string, number> | null>(null);
  positions.current ??= readPositions();
  const shown = useRef(location);
  /** What to do again once the page has rendered the location it was set for, if the first try was too early. */
  const pending = useRef<{ key: string; run: () => void } | null>(null);

  useEffect(() => {
    // The shell scrolls within the document; a reload or a return from another document is the browser's to restore
    // as it paints the server's HTML, long before the shell runs. react-router's ScrollRestoration does the same.
    const manual = () => {
      window.history.scrollRestoration = 'manual';
    };
    manual();
    // The position of the entry on screen, taken when the URL changes: the screen has not changed yet (the next one
    // may still be loading), and with scrollRestoration 'manual' the browser does not move it on Back either.
    const remember = () => {
      positions.current![shown.current.key] = window.scrollY;
    };
    const leave = () => {
      remember();
      window.history.scrollRestoration = 'auto';
      try {
        sessionStorage.setItem(STORAGE_KEY, JSON.stringify(positions.current));
      } catch {
        // Private modes may refuse storage: positions then last as long as the document.
      }
    };
    const unlisten = history.listen(remember);
    window.addEventListener('pagehide', leave);
    // Back to this document from the back-forward cache: the shell scrolls again.
    window.addEventListener('pageshow', manual);
    return () => {
      unlisten();
      window.removeEventListener('pagehide', leave);
      window.removeEventListener('pageshow', manual);
    };
  }, [history]);

  useLayoutEffect(() => {
    const previous = shown.current;
    shown.current = location;
    const first = previous === location;
    const saved = positions.current![location.key];
    const later = (run: () => void) => {
      pending.current = { key: location.key, run };
    };
    pending.current = null;
    if (first) {
      // The browser has scrolled the server's HTML itself (to the old position on a reload, or to the #hash). Without
      // that HTML the page comes later, and with it the element the #hash names.
      if (location.hash && saved === undefined && !hashTarget(location.hash)) later(() => scrollToHash(location.hash));
    } else if (action === NavigationType.Pop && saved !== undefined) {
      window.scrollTo(0, saved);
      if (window.scrollY !== saved) later(() => window.scrollTo(0, saved));
    } else if (preventScrollReset) {
      // The navigation asked to keep the position.
    } else if (!location.hash || !scrollToHash(location.hash)) {
      window.scrollTo(0, 0);
      if (location.hash) later(() => scrollToHash(location.hash));
    }
    // Only a new entry moves the window; its other inputs come with it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [location]);

  return useCallback((renderedKey: string | undefined) => {
    // Only the report of the location the scroll waits for: not a late one from the location before.
    if (!pending.current || pending.current.key !== renderedKey) return;
    const { run } = pending.current;
    pending.current = null;
    run();
  }, []);
}
