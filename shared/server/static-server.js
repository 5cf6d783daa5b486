// The production static server of one deployable: its dist/ on its own port, with the caching and CORS rules
// federated assets need. sirv does the file serving (precompressed .br/.gz, ETags, ranges, no path traversal).
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const sirv = require('sirv');
const { COMMON_HEADERS, htmlHeaders, remoteOriginsFromFile } = require('./security');

/** Content-hashed build output (`main.0123456789.js`): never changes under its name, cache it for a year. */
const HASHED_ASSET = /\.[0-9a-f]{10}\.(js|css)$/;

/** Page routes and .html files are documents; everything with another extension is an asset. */
const isDocument = (pathname) => pathname.endsWith('.html') || !/\.[a-z0-9]+$/i.test(pathname);

/**
 * @param {{ root: string, spa?: boolean, cors?: boolean, files?: Record<string, string> }} options
 *   spa: unknown page routes get index.html (the shell's 404 screen lives in the app); cors: let other origins
 *   (the shell) load the manifest and chunks; files: URL paths served from a file outside root, e.g. a
 *   remotes.json kept with the deployment's configuration rather than in dist/.
 */
function createStaticHandler({ root, spa = false, cors = false, files = {} }) {
  // The shell's documents allow scripts from the remotes it is configured to load; a remote's own page, nothing else.
  const remotesFile = spa ? (files['/remotes.json'] ?? path.join(root, 'remotes.json')) : undefined;
  const serve = sirv(path.resolve(root), {
    // Per-request lookup instead of a file list taken at start-up: a redeployed remote (new hashed chunks, new
    // manifest) or an operator's edit of remotes.json is served at once, without a restart.
    dev: true,
    etag: true,
    gzip: true,
    brotli: true,
    single: spa,
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

  return (req, res) => {
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
    const override = files[new URL(req.url, 'http://localhost').pathname];
    if (override) return sendFile(res, override);
    return serve(req, res);
  };
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
  const server = http.createServer(createStaticHandler(options));
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

module.exports = { createStaticHandler, createStaticServer, listen, close, PortInUseError, HASHED_ASSET };
