// Functions the gate runs inside the page (Playwright sends them as source text: each uses only its argument and the
// page's globals). The only browser code of this package, hence the DOM types here alone.
/// <reference lib="dom" />
/* global window, document, MutationObserver, PopStateEvent */

/** @typedef {{ violations: string[], serverHeading: Element | null }} GateWatch */

/** An init script: from the document's first script, records CSP violations and the h1 the server sent. */
function watchFromFirstScript() {
  /** @type {GateWatch} */
  const state = { violations: [], serverHeading: null };
  Object.defineProperty(window, '__gate', { value: state });
  document.addEventListener('securitypolicyviolation', (event) =>
    state.violations.push(`${event.violatedDirective} ${event.blockedURI}`),
  );
  document.addEventListener('readystatechange', () => {
    if (document.readyState === 'interactive') state.serverHeading = document.querySelector('h1');
  });
}

/**
 * An init script: gives the shell `ms` to load a remote (its `<meta name="remote-timeout-ms">`, put first in the head
 * as the document parses, before any the live index.html has), as long as the gate waits: a page slow to load on a
 * busy machine then runs out of the gate's time, which could not judge, instead of the visitors' time, whose error
 * screen would read as the page's failure.
 * @param {number} ms
 */
function remoteTimeout(ms) {
  new MutationObserver((_records, observer) => {
    if (!document.head) return;
    document.head.prepend(
      Object.assign(document.createElement('meta'), { name: 'remote-timeout-ms', content: `${ms}` }),
    );
    observer.disconnect();
  }).observe(document, { childList: true, subtree: true });
}

/** True once React owns the page's h1 (it marks its nodes with a `__reactFiber…` key). */
function reactOwnsHeading() {
  const h1 = document.querySelector('h1');
  return h1 !== null && Object.keys(h1).some((key) => key.startsWith('__reactFiber'));
}

/** @param {string} previous */
function headingIsNot(previous) {
  const h1 = document.querySelector('h1');
  return h1 !== null && h1.textContent !== previous;
}

/** @param {number} ms */
function pause(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The h1 shown: its text, whether it is the shell's error screen, whether it is the server's very element. */
function shownHeading() {
  const h1 = document.querySelector('h1');
  const gate = /** @type {GateWatch} */ (Reflect.get(window, '__gate'));
  return {
    heading: h1?.textContent ?? '',
    errorScreen: h1?.id === 'status-title',
    inPlace: gate.serverHeading !== null && gate.serverHeading === h1,
    violations: gate.violations,
  };
}

/** Client-side navigation, as the router does it for a link (no document load). @param {string} target */
function navigateInApp(target) {
  window.history.pushState({}, '', target);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

/**
 * The versions of each shared package the shell's federation runtime registered itself.
 * @returns {Record<string, string[]>}
 */
function shellSingletons() {
  /** @typedef {{ name: string, shareScopeMap?: Record<string, Record<string, Record<string, { from?: string }>>> }} Instance */
  const federation = /** @type {{ __INSTANCES__?: Instance[] } | undefined} */ (
    Reflect.get(globalThis, '__FEDERATION__')
  );
  const shell = federation?.__INSTANCES__?.find((instance) => instance.name === 'shell');
  /** @type {Record<string, string[]>} */
  const provided = {};
  for (const [name, versions] of Object.entries(shell?.shareScopeMap?.default ?? {})) {
    provided[name] = Object.entries(versions)
      .filter(([, share]) => share.from === 'shell')
      .map(([version]) => version);
  }
  return provided;
}

module.exports = {
  watchFromFirstScript,
  remoteTimeout,
  reactOwnsHeading,
  headingIsNot,
  pause,
  shownHeading,
  navigateInApp,
  shellSingletons,
};
