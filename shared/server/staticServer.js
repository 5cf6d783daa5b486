// The production static server of one deployable: its dist/ on its own port, with the caching and CORS rules
// federated assets need. sirv does the file serving (precompressed .br/.gz, ETags, ranges, no path traversal).
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const zlib = require('node:zlib');
const sirv = require('sirv');
const { COMMON_HEADERS, htmlHeaders, remoteOriginsFromFile } = require('./securityHeaders');
const { createDocumentComposer } = require('./documentComposer');
const { requestTarget } = require('./requestTarget');
const { FILE_EXTENSION, HASHED_ASSET } = require('@nativegtm/contract/assetNames');

/** Page routes and .html files are documents; everything with another extension is an asset. */
const isDocument = (pathname) => pathname.endsWith('.html') || !FILE_EXTENSION.test(pathname);

/** Compressed documents by content: the same page is composed from the same files many times a second. */
const compressedCache = new Map();

function compressed(html, encoding) {
  const key = `${encoding}\n${html}`;
  let body = compressedCache.get(key);
  if (!body) {
    body =
      encoding === 'br'
        ? zlib.brotliCompressSync(html, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } })
        : zlib.gzipSync(html, { level: 6 });
    if (compressedCache.size >= 64) compressedCache.delete(compressedCache.keys().next().value);
    compressedCache.set(key, body);
  }
  return body;
}

/** Sends a composed document, compressed when the client accepts it. */
function sendDocument(req, res, { status, html }, headers) {
  res.statusCode = status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache');
  res.setHeader('Vary', 'Accept-Encoding');
  const accepted = String(req.headers['accept-encoding'] ?? '');
  const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : undefined;
  const body = encoding ? compressed(html, encoding) : Buffer.from(html);
  if (encoding) res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', body.length);
  res.end(req.method === 'HEAD' ? undefined : body);
}

function sendText(req, res, type, text) {
  res.setHeader('Content-Type', `${type}; charset=utf-8`);
  res.setHeader('Cache-Control', 'no-cache');
  res.end(req.method === 'HEAD' ? undefined : text);
}

/**
 * @param {{ root: string, spa?: boolean, cors?: boolean, files?: Record<string, string>,
 *   compose?: { routes: { route: string, remote: string }[], origin: string, fragmentTimeoutMs?: number } }} options
 *   spa: unknown page routes get index.html (the shell's 404 screen lives in the app); cors: let other origins
 *   (the shell) load the manifest and chunks; files: URL paths served from a file outside root, e.g. a
 *   remotes.json kept with the deployment's configuration rather than in dist/; compose: the shell's documents are
 *   composed with the pages' server-rendered HTML (document.js), with robots.txt and sitemap.xml.
 */
function createStaticHandler({ root, spa = false, cors = false, files = {}, compose }) {
  // The shell's documents allow scripts from the remotes it is configured to load; a remote's own page, nothing else.
  const remotesFile = spa ? (files['/remotes.json'] ?? path.join(root, 'remotes.json')) : undefined;
  const serve = sirv(path.resolve(root), {
    // Per-request lookup instead of a file list taken at start-up: a redeployed remote (new hashed chunks, new
    // manifest) or an operator's edit of remotes.json is served at once, without a restart.
    dev: true,
    etag: true,
    gzip: true,
    brotli: true,
    single: spa && !compose,
    setHeaders(res, pathname) {
      res.setHeader('Cache-Control', HASHED_ASSET.test(pathname) ? 'public, max-age=31536000, immutable' : 'no-cache');
      if (isDocument(pathname)) {
        const headers = htmlHeaders(remotesFile ? remoteOriginsFromFile(remotesFile) : []);
        for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      }
    },
    onNoMatch(_req, res) {
      res.statusCode = 404;
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.setHeader('Cache-Control', 'no-cache');
      res.end('Not found\n');
    },
  });

  const composer =
    compose &&
    createDocumentComposer({
      root: path.resolve(root),
      remotesFile: remotesFile ?? path.join(root, 'remotes.json'),
      ...compose,
    });

  async function serveDocument(req, res) {
    try {
      const document = await composer.render(req.url);
      sendDocument(req, res, document, htmlHeaders(remoteOriginsFromFile(remotesFile)));
    } catch (error) {
      console.error('[document]', error);
      res.statusCode = 500;
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.end('The page could not be composed.\n');
    }
  }

  /** A request nothing below expected ends that one response with 400, never the server every page runs on. */
  function handle(req, res) {
    try {
      return route(req, res);
    } catch (error) {
      console.error(`[static] ${JSON.stringify(req.url)}: ${error.message}`);
      if (!res.headersSent) {
        res.statusCode = 400;
        res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      }
      return res.end('Bad request\n');
    }
  }

  function route(req, res) {
    for (const [name, value] of Object.entries(COMMON_HEADERS)) res.setHeader(name, value);
    if (cors) {
      res.setHeader('Access-Control-Allow-Origin', '*');
      if (req.method === 'OPTIONS') {
        res.setHeader('Access-Control-Allow-Methods', 'GET, HEAD, OPTIONS');
        res.setHeader('Access-Control-Allow-Headers', '*');
        res.statusCode = 204;
        return res.end();
      }
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.statusCode = 405;
      res.setHeader('Allow', 'GET, HEAD');
      return res.end();
    }
    const { pathname } = requestTarget(req.url);
    const override = files[pathname];
    if (override) return sendFile(res, override);
    if (composer) {
      if (pathname === '/robots.txt') return sendText(req, res, 'text/plain', composer.robotsTxt());
      if (pathname === '/sitemap.xml') return sendText(req, res, 'application/xml', composer.sitemapXml());
      // index.html is the template, never served as it is: /index.html is just another unknown page.
      if (!FILE_EXTENSION.test(pathname) || pathname === '/index.html') return void serveDocument(req, res);
    }
    // sirv pipes a file it found into the response; if a redeploy deletes it before it is opened, the read stream's
    // error would have no listener and end the whole server. The response is cut short instead (the browser's load of
    // that file fails, as for a dropped connection) and the server carries on.
    res.once('pipe', (source) =>
      source.once('error', (error) => {
        console.error(`[static] ${pathname}: ${error.code ?? error.message}`);
        res.destroy();
      }),
    );
    return serve(req, res);
  }

  // Stops the composer's background refresh of fragments (the server calls it when it closes).
  return Object.assign(handle, { close: () => composer?.close() });
}

/** Sends one configuration file, always revalidated (it is edited in place). */
function sendFile(res, file) {
  fs.readFile(file, (error, body) => {
    if (error) {
      res.statusCode = 404;
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      return res.end('Not found\n');
    }
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache');
    res.end(body);
  });
}

function createStaticServer(options) {
  const handler = createStaticHandler(options);
  const server = http.createServer(handler);
  server.once('close', handler.close);
  // Keep-alive sockets would hold a shutdown open; they are closed explicitly in close().
  return server;
}

class PortInUseError extends Error {
  constructor(port, label) {
    super(
      `Port ${port} (${label}) is already in use. Stop the process that holds it ` +
        `(e.g. \`lsof -i :${port}\`) and try again; the site needs exactly this port.`,
    );
    this.name = 'PortInUseError';
    this.port = port;
  }
}

/** Listens on `port` (all interfaces unless HOST is set); rejects with PortInUseError rather than picking another. */
function listen(server, port, label, host = process.env.HOST) {
  return new Promise((resolve, reject) => {
    const onError = (error) => {
      server.off('listening', onListening);
      reject(error.code === 'EADDRINUSE' ? new PortInUseError(port, label) : error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve(server);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

/** Stops accepting connections and ends idle keep-alive ones, so a shutdown does not hang. */
function close(server) {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 2000).unref();
  });
}

module.exports = { createStaticHandler, createStaticServer, listen, close, PortInUseError };
