// What a remote's server serves when the release store has releases of it: the live release at the remote's root
// (mf-manifest.json, remoteEntry.js, ssr/, chunks), every content-hashed file of the releases kept (assets/), so a tab
// that loaded an older release's manifest still finds its chunks, and then the remote's own dist/ (the newcomer's
// path, and a pointer that names nothing). Any release in the store, live or not, is also served whole under
// /releases/<id>/: what a preview loads. Without releases this is exactly dist/.
const { LRUCache } = require('lru-cache');
const { liveRelease } = require('@nativegtm/store/livePointer');
const { rememberedReleases } = require('@nativegtm/store/releaseInStore');
const { answerNotFound } = require('../staticFiles');

/** @typedef {import('node:http').IncomingMessage} IncomingMessage */
/** @typedef {import('node:http').ServerResponse} ServerResponse */
/** @typedef {(req: IncomingMessage, res: ServerResponse, next?: () => void) => void} Serve */

/** `/releases/<id>/<file>`: the release and the file's path inside it. */
const RELEASE_URL = /^\/releases\/([0-9a-f]{16})(\/[^?]*)(\?.*)?$/;
/** Releases kept open at once (each holds its file list). */
const MAX_OPEN_RELEASES = 32;

/**
 * @param {{ layout: import('@nativegtm/store/layout').StoreLayout, dist: Serve,
 *   files: (root: string, options: { immutable: boolean }) => Serve,
 *   onProblem?: (problem: string, keeping: string | undefined) => void,
 *   onChange?: (id: string | undefined) => void }} options
 *   dist: the remote's dist/ (answers 404 itself); files: a static file server on a folder (immutable: its files
 *   never change, so they are listed once)
 * @returns {{ serve: Serve, live: () => string | undefined }}
 */
function createRemoteFiles({ layout, dist, files, onProblem, onChange }) {
  const live = liveRelease(layout, { onProblem, onChange });
  const assets = files(layout.assets, { immutable: false });
  const inStore = rememberedReleases();
  /** @type {LRUCache<string, Serve>} */
  const opened = new LRUCache({ max: MAX_OPEN_RELEASES });

  /** @param {string} id */
  function release(id) {
    let serve = opened.get(id);
    if (!serve) {
      serve = files(layout.release(id), { immutable: true });
      opened.set(id, serve);
    }
    return serve;
  }

  /** @type {Serve} */
  function serve(req, res) {
    const url = /** @type {string} */ (req.url);
    const [, named, file, query = ''] = RELEASE_URL.exec(url) ?? [];
    if (named && file && inStore(layout, named)) {
      req.url = `${file}${query}`;
      // Only that release's own files: never another's under its name.
      return release(named)(req, res, () => answerNotFound(res));
    }
    const id = live();
    if (!id) return dist(req, res);
    return release(id)(req, res, () => assets(req, res, () => dist(req, res)));
  }

  return { serve, live };
}

module.exports = { createRemoteFiles };
