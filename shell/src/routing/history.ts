import { createPath, NavigationType, parsePath, type Location, type Navigator, type To } from 'react-router-dom';

/** A change of the current entry, as the shell's navigation sees it. */
export interface HistoryUpdate {
  action: NavigationType;
  location: Location;
  /** Set by a link or setSearchParams that asked to keep the scroll position (the Featured Jobs filters). */
  preventScrollReset: boolean;
}

/**
 * The navigator react-router's <Router> and every page's root are given, plus what the shell's navigation needs to
 * follow it. react-router's own history is an internal API (UNSAFE_createBrowserHistory); this one is a few lines on
 * the History API, and with it the shell needs only react-router's declarative core (see ShellRouter).
 */
export interface ShellHistory extends Navigator {
  readonly location: Location;
  readonly action: NavigationType;
  listen(listener: (update: HistoryUpdate) => void): () => void;
}

interface NavigateOptions {
  preventScrollReset?: boolean;
}

/** What each entry keeps in history.state: the app's state and a key that tells two visits of one URL apart. */
interface EntryState {
  usr: unknown;
  key: string;
}

const createKey = () => Math.random().toString(36).slice(2, 10);

function toPath(to: To): string {
  return typeof to === 'string' ? to : createPath(to);
}

function locationOf(to: To, state: unknown, key: string): Location {
  const { pathname = '/', search = '', hash = '' } = typeof to === 'string' ? parsePath(to) : to;
  return { pathname, search, hash, state, key };
}

function createListeners() {
  const listeners = new Set<(update: HistoryUpdate) => void>();
  return {
    listen(listener: (update: HistoryUpdate) => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    notify(update: HistoryUpdate) {
      for (const listener of listeners) listener(update);
    },
  };
}

/** The document's own history (the History API), for the browser. */
export function createBrowserHistory(win: Window = window): ShellHistory {
  const { listen, notify } = createListeners();
  let action = NavigationType.Pop;
  const current = (): Location => {
    const entry = win.history.state as Partial<EntryState> | null;
    return locationOf(createPath(win.location), entry?.usr ?? null, entry?.key ?? 'default');
  };
  /**
   * Every entry gets its own key: the document's first one, and entries made without this history (a #hash typed in
   * the address bar, another script's pushState), so that a scroll position remembered for one is never applied to
   * another. What another script keeps in history.state stays.
   */
  const keyCurrentEntry = () => {
    const state: unknown = win.history.state;
    if (state && typeof state === 'object' && typeof (state as Partial<EntryState>).key === 'string') return;
    const fields = state && typeof state === 'object' ? state : {};
    win.history.replaceState({ ...fields, usr: (fields as Partial<EntryState>).usr ?? null, key: createKey() }, '');
  };
  keyCurrentEntry();
  let location = current();

  win.addEventListener('popstate', () => {
    keyCurrentEntry();
    action = NavigationType.Pop;
    location = current();
    notify({ action, location, preventScrollReset: false });
  });

  function change(
    kind: NavigationType.Push | NavigationType.Replace,
    to: To,
    state: unknown,
    options?: NavigateOptions,
  ) {
    const entry: EntryState = { usr: state ?? null, key: createKey() };
    const url = toPath(to);
    try {
      if (kind === NavigationType.Push) win.history.pushState(entry, '', url);
      else win.history.replaceState(entry, '', url);
    } catch (error) {
      // State the History API cannot store is a bug in the caller: say so rather than reload.
      if (error instanceof DOMException && error.name === 'DataCloneError') throw error;
      // Browsers cap how often a document may change its history (Safari: 100 times in 30 s); a full load still
      // gets the visitor there, as a new entry or in place of this one.
      if (kind === NavigationType.Push) win.location.assign(url);
      else win.location.replace(url);
      return;
    }
    action = kind;
    location = current();
    notify({ action, location, preventScrollReset: Boolean(options?.preventScrollReset) });
  }

  return {
    get location() {
      return location;
    },
    get action() {
      return action;
    },
    listen,
    createHref: toPath,
    go: (delta) => win.history.go(delta),
    push: (to, state, options) => change(NavigationType.Push, to, state, options),
    replace: (to, state, options) => change(NavigationType.Replace, to, state, options),
  };
}

/** A history in memory, for tests: the same behaviour without a document. */
export function createMemoryHistory(initialEntries: string[] = ['/']): ShellHistory {
  const { listen, notify } = createListeners();
  const entries = initialEntries.map((path, index) => locationOf(path, null, index === 0 ? 'default' : createKey()));
  let index = entries.length - 1;
  let action = NavigationType.Pop;

  function change(
    kind: NavigationType.Push | NavigationType.Replace,
    to: To,
    state: unknown,
    options?: NavigateOptions,
  ) {
    const next = locationOf(to, state ?? null, createKey());
    if (kind === NavigationType.Push) {
      index += 1;
      entries.splice(index, entries.length, next);
    } else {
      entries[index] = next;
    }
    action = kind;
    notify({ action, location: next, preventScrollReset: Boolean(options?.preventScrollReset) });
  }

  return {
    get location() {
      return entries[index]!;
    },
    get action() {
      return action;
    },
    listen,
    createHref: toPath,
    go(delta) {
      const target = Math.min(Math.max(index + delta, 0), entries.length - 1);
      if (target === index) return;
      index = target;
      action = NavigationType.Pop;
      notify({ action, location: entries[index]!, preventScrollReset: false });
    },
    push: (to, state, options) => change(NavigationType.Push, to, state, options),
    replace: (to, state, options) => change(NavigationType.Replace, to, state, options),
  };
}
