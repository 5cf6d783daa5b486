// Runs in the browser, before any of the application's JavaScript: it holds that JavaScript back until the
// server-rendered page has been painted, then starts it. Emitted by plugin.js as `paint-first.<hash>.js`.
//
// Why: the document already carries the page, so nothing the scripts do is needed for the first paint. Started with
// the document, ten scripts (150 KB) and their evaluation compete with the page's stylesheets on a slow connection
// and hold the main thread before the first frame; started after it, they cost the visitor nothing they can see.
// A document without a server-rendered page (a remote was down, so the page renders in the browser) starts them at
// once: there is nothing to paint first.
(function paintFirst(script) {
  'use strict';
  /** @param {string} name */
  var words = function (name) {
    return (script.getAttribute(name) || '').split(' ').filter(Boolean);
  };
  var sources = words('data-scripts');
  // Each script's Subresource Integrity, in the same order: a production build lists one for every script.
  var integrity = words('data-integrity');
  var fetches = words('data-fetches');
  /**
   * The documents enforce Trusted Types: a script URL reaches script.src only through a named policy. This one passes
   * exactly the URLs this script's own tag lists (written by the build), nothing a page could hand it later. Browsers
   * without Trusted Types take the plain URL.
   * @typedef {{ createScriptURL: (url: string) => string }} ScriptUrlPolicy
   * @typedef {{ trustedTypes?: { createPolicy: (name: string, rules: ScriptUrlPolicy) => ScriptUrlPolicy } }} Window
   */
  var withTrustedTypes = /** @type {Window} */ (/** @type {unknown} */ (window));
  var policy =
    withTrustedTypes.trustedTypes &&
    withTrustedTypes.trustedTypes.createPolicy(script.getAttribute('data-trusted-types-policy') || 'nativegtm-boot', {
      createScriptURL: function (url) {
        if (sources.indexOf(url) < 0) throw new TypeError('Not a script this document lists: ' + url);
        return url;
      },
    });
  // Never hold the application back for longer than this, whatever the browser reports (or fails to report).
  var LONGEST_WAIT_MS = 2000;
  var started = false;

  function start() {
    if (started) return;
    started = true;
    var head = document.head;
    fetches.forEach(function (href) {
      // The application fetches these (remotes.json) itself and reuses this response.
      var link = document.createElement('link');
      link.setAttribute('rel', 'preload');
      link.setAttribute('as', 'fetch');
      link.setAttribute('crossorigin', 'anonymous');
      link.setAttribute('href', href);
      head.appendChild(link);
    });
    sources.forEach(function (src, index) {
      var element = document.createElement('script');
      if (integrity[index]) {
        element.setAttribute('integrity', integrity[index]);
        element.crossOrigin = 'anonymous';
      }
      element.src = policy ? policy.createScriptURL(src) : src;
      // Inserted scripts are async by default; these must run in document order, as deferred ones would.
      element.async = false;
      head.appendChild(element);
    });
  }

  function afterNextFrame() {
    // The callback of requestAnimationFrame runs just before the frame is rendered; the task queued from it runs
    // after that frame. A render-blocked document (stylesheets still loading) gets no frame, so this also waits
    // for the stylesheets.
    requestAnimationFrame(function () {
      setTimeout(start, 0);
    });
  }

  var serverPage = document.querySelector('body > [data-remote][data-build]');
  if (!serverPage || document.visibilityState !== 'visible') {
    // Nothing to paint first, or a background tab, which paints nothing until it is shown.
    start();
    return;
  }
  setTimeout(start, LONGEST_WAIT_MS);
  var observable = window.PerformanceObserver && PerformanceObserver.supportedEntryTypes;
  if (!observable || observable.indexOf('paint') < 0) {
    afterNextFrame();
    return;
  }
  if (performance.getEntriesByName('first-contentful-paint').length > 0) {
    start();
    return;
  }
  // The browser reports the first contentful paint once the frame is on screen, not just drawn.
  new PerformanceObserver(function (list, observer) {
    if (list.getEntriesByName('first-contentful-paint').length === 0) return;
    observer.disconnect();
    start();
  }).observe({ type: 'paint', buffered: true });
  // A classic script, run by the parser: currentScript is this script's element.
})(/** @type {HTMLScriptElement} */ (document.currentScript));
