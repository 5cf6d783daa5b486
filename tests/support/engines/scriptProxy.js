// A reverse proxy that gives an engine without a console API or preload scripts (WebKitGTK over classic WebDriver)
// both: every HTML document passing through gets one script first in its <head>, served by the proxy itself, which
// reports the page's console errors and uncaught errors back to the proxy and runs the session's init scripts.
//
// The script is a file from the document's own origin (the proxy), so the site's Content-Security-Policy, which is
// passed through untouched, allows it ('self') and its reports (connect-src 'self'): the page runs under the same
// policy as without the proxy. Status codes and every other header pass through too.
/* global window, addEventListener -- hook() runs in the page */
const http = require('node:http');

const HOOK_PATH = '/__engine/hook.js';
const REPORT_PATH = '/__engine/console';

/**
 * One console error or uncaught error of a document; `id` tells the copy the proxy got from the one in the page.
 * @typedef {{ id: string, text: string }} ConsoleEntry
 */

/**
 * What startScriptProxy resolves with.
 * @typedef {object} ScriptProxy
 * @property {string} origin  where to open the site through the proxy
 * @property {(sources: string[]) => void} setInitScripts  functions' source text, run in every document from now on
 * @property {() => ConsoleEntry[]} reported  what documents have sent so far
 * @property {() => void} clear  forgets the reports and the init scripts
 * @property {() => Promise<void>} close
 */

/**
 * Runs in the page before any of its own scripts. Keeps what it sees in the page (read by the driver) and also sends
 * it to the proxy, so errors of a document that has since been left are not lost.
 * @param {string} reportPath
 */
function hook(reportPath) {
  /** @type {ConsoleEntry[]} */
  const seen = [];
  const documentId = Math.random().toString(36).slice(2);
  /** @param {unknown} value */
  const describe = (value) => {
    if (value instanceof Error) return `${value.name}: ${value.message}`;
    if (typeof value === 'string') return value;
    try {
      return JSON.stringify(value);
    } catch {
      return String(value);
    }
  };
  /** @param {string} text */
  const record = (text) => {
    const entry = { id: `${documentId}:${seen.length}`, text };
    seen.push(entry);
    try {
      navigator.sendBeacon(reportPath, JSON.stringify(entry));
    } catch {
      // Reporting must never break the page; the entry is still read from the page.
    }
  };
  const original = console.error;
  console.error = function error(...args) {
    record(args.map(describe).join(' '));
    return original.apply(this, args);
  };
  addEventListener('error', (event) => record(`Uncaught ${describe(event.error ?? event.message)}`));
  addEventListener('unhandledrejection', (event) => record(`Uncaught (in promise) ${describe(event.reason)}`));
  Object.defineProperty(window, '__engineConsoleErrors', { value: seen });
}

/**
 * The document with `tag` first in its <head> (not in a <header>), or, without a <head>, after its doctype, which
 * must stay first for the page to render in standards mode.
 * @param {string} html
 * @param {string} tag
 */
function withScript(html, tag) {
  const head = /<head(?=[\s>])[^>]*>/i;
  if (head.test(html)) return html.replace(head, (open) => open + tag);
  const doctype = /^\s*<!doctype[^>]*>/i;
  return doctype.test(html) ? html.replace(doctype, (declaration) => declaration + tag) : tag + html;
}

/**
 * @param {string} target origin of the site, e.g. http://localhost:4100
 * @returns {Promise<ScriptProxy>}
 */
function startScriptProxy(target) {
  const upstream = new URL(target);
  /** @type {string[]} */
  let initScripts = [];
  /** @type {ConsoleEntry[]} */
  let reports = [];

  const server = http.createServer((req, res) => {
    if (req.method === 'POST' && req.url === REPORT_PATH) {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        try {
          reports.push(JSON.parse(body));
        } catch {
          // Not a report of ours.
        }
        res.writeHead(204).end();
      });
      return;
    }
    if (req.url === HOOK_PATH) {
      const body = [`(${hook})(${JSON.stringify(REPORT_PATH)});`, ...initScripts.map((source) => `(${source})();`)];
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
      res.end(body.join('\n'));
      return;
    }
    const headers = { ...req.headers, host: upstream.host, 'accept-encoding': 'identity' };
    const forward = http.request(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers },
      (answer) => {
        // A reset upstream ends the page's request too, instead of leaving it to time out.
        answer.on('error', () => res.destroy());
        if (!/^text\/html/.test(answer.headers['content-type'] ?? '')) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        /** @type {Buffer[]} */
        const chunks = [];
        answer.on('data', (chunk) => chunks.push(chunk));
        answer.on('end', () => {
          const tag = `<script src="${HOOK_PATH}"></script>`;
          const html = Buffer.concat(chunks).toString('utf8');
          const withHook = withScript(html, tag);
          const headers = { ...answer.headers };
          delete headers['content-length'];
          res.writeHead(answer.statusCode ?? 502, headers);
          res.end(withHook);
        });
      },
    );
    forward.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    res.on('close', () => forward.destroy());
    req.pipe(forward);
  });

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    // Loopback only: the report endpoint takes anything it is sent.
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      resolve({
        // localhost, not 127.0.0.1: the site's links and CSP name localhost.
        origin: `http://localhost:${port}`,
        setInitScripts(sources) {
          initScripts = [...sources];
        },
        reported: () => [...reports],
        clear() {
          reports = [];
          initScripts = [];
        },
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

module.exports = { startScriptProxy };
