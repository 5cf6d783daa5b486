// The release store's layout on disk (where the store is: @nativegtm/server/storeDir): one folder per remote, plain files that can be copied to object storage or a
// CDN as they are (docs/releasing.md). The commands write it; both servers read it.
//
//   <store>/<remote>/<id>/               a release's files, exactly as its build wrote them; never changed
//   <store>/<remote>/assets/<file>       every content-hashed file of the releases kept (hard links): a tab holding
//                                        an older release's manifest still finds its chunks at the remote's root
//   <store>/<remote>/records/<id>.json   when and from which commit a release was made, and its hashed files
//   <store>/<remote>/gates/<id>.json     the last gate run on it
//   <store>/<remote>/gates/<id>.failed   there when that run failed: what both servers test (nginx reads no JSON)
//   <store>/<remote>/previews/<id>.<mark> a mark that lets a link preview that release although its gate failed
//   <store>/<remote>/live                the live pointer: a symbolic link to <id>, replaced atomically
//   <store>/<remote>/history.jsonl       every change of the live pointer, one JSON object per line
//   <store>/<remote>/audit.jsonl         every change of the remote's store: what, when and who (audit.js)
//   <store>/<remote>/canary              the running canary: a symbolic link to canaries/<n> (canaryInStore.js)
//   <store>/<remote>/canary-lease.json   the last renewal of the running canary's lease (canaryLease.js)
//   <store>/<remote>/canary-history.jsonl every canary that ended: its release, steps, verdicts and outcome
//   <store>/<remote>/nginx-canary/       the running canary as nginx reads it, written from canary/canary.json
//   <store>/<remote>/.lock               held by the command changing this remote's store (a directory)
const path = require('node:path');

/**
 * @param {string} storeDir
 * @param {string} remote
 */
function storeLayout(storeDir, remote) {
  const dir = path.join(storeDir, remote);
  return {
    dir,
    /** @param {string} id */
    release: (id) => path.join(dir, id),
    assets: path.join(dir, 'assets'),
    records: path.join(dir, 'records'),
    /** @param {string} id */
    record: (id) => path.join(dir, 'records', `${id}.json`),
    /** @param {string} id */
    gate: (id) => path.join(dir, 'gates', `${id}.json`),
    /** @param {string} id */
    gateFailed: (id) => path.join(dir, 'gates', `${id}.failed`),
    previewMarks: path.join(dir, 'previews'),
    /** @param {string} id @param {string} mark */
    previewMark: (id, mark) => path.join(dir, 'previews', `${id}.${mark}`),
    live: path.join(dir, 'live'),
    history: path.join(dir, 'history.jsonl'),
    audit: path.join(dir, 'audit.jsonl'),
    canary: path.join(dir, 'canary'),
    canaries: path.join(dir, 'canaries'),
    canaryHistory: path.join(dir, 'canary-history.jsonl'),
    canaryLease: path.join(dir, 'canary-lease.json'),
    /** nginx's view of the running canary (canaryInStore.js writeNginxCanaryMaps). */
    nginxCanary: path.join(dir, 'nginx-canary'),
    lock: path.join(dir, '.lock'),
    /** Where a publish or a build is assembled before it becomes visible (a name no release id can have). */
    incoming: path.join(dir, '.incoming'),
  };
}

/** @typedef {ReturnType<typeof storeLayout>} StoreLayout */

module.exports = { storeLayout };
