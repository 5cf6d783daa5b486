import type { Location, NavigationType } from 'react-router-dom';
import type { PageModule, RemoteName } from '@nativegtm/design-system';
import type { PageLoader } from '../remotes/pageLoader';
import { remoteForPath } from '../routeTable';
import type { ShellHistory } from './history';

/** What the shell shows below its layout. */
export type Screen =
  | { kind: 'page'; remote: RemoteName; module: PageModule }
  | { kind: 'notFound' }
  | { kind: 'error'; remote: RemoteName };

interface NavigationState {
  /** The location on screen: it changes when the next screen is ready, not when the URL does. */
  location: Location;
  action: NavigationType;
  /** Undefined until the first screen is decided (its remote loaded, or failed). */
  screen: Screen | undefined;
  /** The next screen is loading (a navigation or Try again); the current one stays on screen meanwhile. */
  loading: boolean;
  /** Counts Try again: a new attempt starts the screen over, also after a page that failed while rendering. */
  attempt: number;
  /** The navigation asked to keep the scroll position. */
  preventScrollReset: boolean;
}

export interface ShellNavigation {
  readonly history: ShellHistory;
  readonly state: NavigationState;
  subscribe(listener: () => void): () => void;
  /** Loads the current location's screen again (the error screen's Try again). */
  retry(): void;
}

/**
 * The shell's routing, outside React: for each location the URL takes, the screen to show once it is ready (the
 * route's remote loaded, the 404, or the error screen). Until then the current screen stays, as it did with
 * react-router's data router, whose loaders this replaces: the data router costs 30 KB of gzip JavaScript on every
 * first visit, the declarative core it leaves 12.5 KB, and four routes with one loader each need very little of it.
 * A later navigation wins over an earlier one that is still loading.
 */
export function createShellNavigation(history: ShellHistory, loader: PageLoader): ShellNavigation {
  const listeners = new Set<() => void>();
  let state: NavigationState = {
    location: history.location,
    action: history.action,
    screen: undefined,
    loading: true,
    attempt: 0,
    preventScrollReset: false,
  };
  let latest = 0;

  function update(next: Partial<NavigationState>) {
    state = { ...state, ...next };
    for (const listener of listeners) listener();
  }

  function show(location: Location, action: NavigationType, preventScrollReset: boolean, attempt: number) {
    const ticket = ++latest;
    const settle = (screen: Screen) => {
      if (ticket === latest) update({ location, action, screen, loading: false, attempt, preventScrollReset });
    };
    const remote = remoteForPath(location.pathname);
    if (!remote) return settle({ kind: 'notFound' });
    const shown = state.screen;
    if (shown?.kind === 'page' && shown.remote === remote && attempt === state.attempt) {
      // The same page with another query or hash (a filter): its module is here, so no loading state at all.
      return settle(shown);
    }
    if (!state.loading) update({ loading: true });
    loader.load(remote).then(
      (module) => settle({ kind: 'page', remote, module }),
      // The loader has logged why; the visitor gets the error screen and Try again.
      () => settle({ kind: 'error', remote }),
    );
  }

  history.listen(({ action, location, preventScrollReset }) =>
    show(location, action, preventScrollReset, state.attempt),
  );
  show(history.location, history.action, false, 0);

  return {
    history,
    get state() {
      return state;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    retry() {
      // The same location: the scroll position stays (it moves only when the location changes).
      show(state.location, state.action, state.preventScrollReset, state.attempt + 1);
    },
  };
}
