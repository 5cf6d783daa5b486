// A deployable's files from disk (sirv: precompressed .br/.gz, ETags, ranges, no path traversal), with the caching
// rule of federated assets: a content-hashed file is immutable for a year, anything else is revalidated. Documents
// (page routes and .html files) get the security headers of their deployable.
const path = require('node:path');
const sirv = require('sirv');
const { FILE_EXTENSION, HASHED_ASSET } = require('@nativegtm/contract/assetNames');

/** @typedef {import('node:http').IncomingMessage} IncomingMessage */
/** @typedef {import('node:http').ServerResponse} ServerResponse */
/** @typedef {(req: IncomingMessage, res: ServerResponse, next?: () => void) => void} Serve */

/**
 * Page routes and .html files are documents; everything with another extension is an asset.
 * @param {string} pathname
 */
const isDocument = (pathname) => pathname.endsWith('.html') || !FILE_EXTENSION.test(pathname);

/**
 * A static file server on `dir`.
 * @param {string} dir
 * @param {{ documentHeaders: () => Record<string, string>, immutable?: boolean, notFound?: boolean,
 *   single?: boolean }} options
 *   documentHeaders: a document's security headers, asked per response (they follow remotes.json); immutable: the
 *   folder never changes (a release), so its files are listed once; notFound: answers 404 itself rather than handing
 *   the request on; single: unknown page routes get index.html (a shell without composition)
 * @returns {Serve}
 */
function staticFiles(dir, { documentHeaders, immutable = false, notFound = false, single = false }) {
  return sirv(path.resolve(dir), {
    // Per-request lookup instead of a file list taken at start-up: a redeployed remote (new hashed chunks, new
    // manifest) or an operator's edit of remotes.json is served at once, without a restart.
    dev: !immutable,
    etag: true,
    gzip: true,
    brotli: true,
    single,
    setHeaders(res, pathname) {
      res.setHeader('Cache-Control', HASHED_ASSET.test(pathname) ? 'public, max-age=31536000, immutable' : 'no-cache');
      if (isDocument(pathname)) {
        for (const [name, value] of Object.entries(documentHeaders())) res.setHeader(name, value);
      }
    },
    onNoMatch: notFound ? (_req, res) => answerNotFound(res) : undefined,
  });
}

/** @param {ServerResponse} res */
function answerNotFound(res) {
  res.statusCode = 404;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache');
  res.end('Not found\n');
}

/**
 * Serves a file with `serve`, surviving its deletion: sirv pipes a file it found into the response, and if a redeploy
 * deletes it before it is opened, the read stream's error would have no listener and end the whole server. The
 * response is cut short instead (the browser's load of that file fails, as for a dropped connection).
 * @param {Serve} serve
 * @param {(file: { reqId: string, path: string, reason: string }) => void} onVanished
 * @returns {(req: IncomingMessage, res: ServerResponse, request: { pathname: string, observed: { id: string } }) => void}
 */
function guardedFiles(serve, onVanished) {
  return (req, res, { pathname, observed }) => {
    res.once('pipe', (source) =>
      source.once(
        'error',
        /** @param {NodeJS.ErrnoException} error */ (error) => {
          onVanished({ reqId: observed.id, path: pathname, reason: error.code ?? error.message });
          res.destroy();
        },
      ),
    );
    serve(req, res);
  };
}

module.exports = { answerNotFound, guardedFiles, staticFiles };
