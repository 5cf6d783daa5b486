// Functions that run inside the page, shared by every driver (they are sent as source text: each may use only its
// one argument and the page's globals).
/* global window, document, MutationObserver */

/**
 * True once React owns the page's h1 (hydrated or rendered), and its text is `expected` when one is given. React
 * marks the nodes it owns with a `__reactFiber…` key.
 * @param {string | null} [expected]
 */
function reactOwnsHeading(expected) {
  const h1 = document.querySelector('h1');
  if (h1 === null || (expected && h1.textContent !== expected)) return false;
  return Object.keys(h1).some((key) => key.startsWith('__reactFiber'));
}

/**
 * An init script: watches what happens to the server's HTML and to the page's policy from the moment the document is
 * parsed, before the first deferred script runs (readyState 'interactive'), into `window.__pageWatch`:
 * - `heading`: the h1 the server sent;
 * - `removed`: how many elements of the server's page (the element marked data-remote, after #root) were removed
 *   since, the page itself included: hydration keeps every node, a re-render replaces them;
 * - `violations`: Content-Security-Policy violations, which not every driver reports as console errors.
 */
function watchPage() {
  /** @type {{ heading: Element | null, removed: number, violations: string[] }} */
  const watch = { heading: null, removed: 0, violations: [] };
  Object.defineProperty(window, '__pageWatch', { value: watch });
  document.addEventListener('securitypolicyviolation', (event) => {
    watch.violations.push(`${event.violatedDirective} ${event.blockedURI}`);
  });
  document.addEventListener('readystatechange', () => {
    if (document.readyState !== 'interactive') return;
    watch.heading = document.querySelector('h1');
    const server = document.querySelector('[data-remote]');
    if (!server) return;
    new MutationObserver((records) => {
      for (const record of records) {
        const inServerHtml = record.target === server || server.contains(record.target);
        for (const node of record.removedNodes) {
          if (node.nodeType === 1 && (inServerHtml || node === server)) watch.removed += 1;
        }
      }
    }).observe(document.body, { childList: true, subtree: true });
  });
}

module.exports = { reactOwnsHeading, watchPage };
