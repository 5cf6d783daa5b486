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
    return JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}') as Record<string, number>;
  } catch {
    return {}; // Storage blocked or a value we did not write: start with none.
  }
}

function scrollToHash(hash: string): boolean {
  const id = decodeURIComponent(hash.slice(1));
  const target = id ? document.getElementById(id) : null;
  target?.scrollIntoView();
  return target !== null;
}

/**
 * Where the window scrolls after client-side navigation, as visitors expect from full page loads: the top of a new
 * page (or its #hash), the old position on Back and Forward and after a reload, and no jump when the navigation asked
 * to keep it (the Featured Jobs filters). Positions are remembered per history entry, for the tab's life.
 *
 * A page renders in a React root of its own, after the shell's commit: a position further down than the previous page
 * was long, or a #hash in it, is applied again once the page reports it has rendered (the returned callback).
 */
export function useScrollRestoration({ history, location, action, preventScrollReset }: ScrollInputs): () => void {
  const positions = useRef<Record<string, number> | null>(null);
  positions.current ??= readPositions();
  const shown = useRef(location);
  /** What to do again once the page has rendered, if the first try was too early. */
  const pending = useRef<(() => void) | null>(null);

  useEffect(() => {
    window.history.scrollRestoration = 'manual';
    // The position of the entry on screen, taken when the URL changes: the screen has not changed yet (the next one
    // may still be loading), and with scrollRestoration 'manual' the browser does not move it on Back either.
    const remember = () => {
      positions.current![shown.current.key] = window.scrollY;
    };
    const persist = () => {
      remember();
      try {
        sessionStorage.setItem(STORAGE_KEY, JSON.stringify(positions.current));
      } catch {
        // Private modes may refuse storage: positions then last as long as the document.
      }
    };
    const unlisten = history.listen(remember);
    window.addEventListener('pagehide', persist);
    return () => {
      unlisten();
      window.removeEventListener('pagehide', persist);
    };
  }, [history]);

  useLayoutEffect(() => {
    const previous = shown.current;
    shown.current = location;
    const first = previous === location;
    const saved = positions.current![location.key];
    pending.current = null;
    if (action === NavigationType.Pop && saved !== undefined) {
      window.scrollTo(0, saved);
      if (window.scrollY !== saved) pending.current = () => window.scrollTo(0, saved);
    } else if (first || preventScrollReset) {
      // A first load is scrolled by the browser (to its #hash); a kept position stays.
    } else if (!location.hash || !scrollToHash(location.hash)) {
      window.scrollTo(0, 0);
      if (location.hash) pending.current = () => scrollToHash(location.hash);
    }
    // Only a new entry moves the window; its other inputs come with it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [location]);

  return useCallback(() => {
    pending.current?.();
    pending.current = null;
  }, []);
}
