// What the store says about a remote's releases, beside their files: each release's record (immutable, written when
// it is published), the last gate run on it, and the history of the live pointer (appended here; read by
// ./liveHistory, which the servers' status page needs too). JSON files are written whole and
// on disk, the history appended on a line of its own (./durableFiles), so a reader never sees half of
// one and a torn line loses only itself.
const fs = require('node:fs');
const path = require('node:path');
const { RELEASE_ID } = require('@nativegtm/contract/releases');
const { appendLinesDurably, writeFileDurably } = require('./durableFiles');
const { hasRelease } = require('./releaseInStore');

/** @typedef {import('./layout').StoreLayout} StoreLayout */
/**
 * @typedef {{ id: string, remote: string, created: string, by?: string, buildId: string, commit: string | null,
 *   dirty: boolean, hashedFiles: string[], integrity?: Record<string, string> }} ReleaseRecord
 *   by: who published it (actor.js); hashedFiles: the content-hashed files it shares through assets/ (prune keeps
 *   those of the releases it keeps); integrity: each file a browser may load, with the integrity it is loaded with,
 *   and ssr/manifest.json (@nativegtm/contract/integrity), checked against the files at publish; none in a release
 *   published before releases had it, whose files browsers then refuse
 * @typedef {{ at: string, passed: boolean, skipped?: boolean, checks: { name: string, ok: boolean,
 *   detail?: string }[] }} GateResult
 */
/** @typedef {import('./liveHistory').LiveChange} LiveChange */
/** @typedef {import('./storeLock').Fence} Fence */

/**
 * Writes JSON whole and on disk, or leaves the file as it was.
 * @param {string} file
 * @param {unknown} value
 * @param {Fence} [fence] the store's lock's, under it
 */
function writeJsonAtomically(file, value, fence) {
  writeFileDurably(file, `${JSON.stringify(value, null, 2)}\n`, { fence });
}

/**
 * @template T
 * @param {string} file
 * @returns {T | undefined}
 */
function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * The releases in the store, oldest first: a release exists when its folder does (a publish renames it into place
 * last), with its record.
 * @param {StoreLayout} layout
 * @returns {ReleaseRecord[]}
 */
function listReleases(layout) {
  let names;
  try {
    names = fs.readdirSync(layout.dir);
  } catch {
    return [];
  }
  return names
    .filter((name) => RELEASE_ID.test(name))
    .map((id) => /** @type {ReleaseRecord | undefined} */ (readJson(layout.record(id))))
    .filter((record) => record !== undefined)
    .sort((a, b) => a.created.localeCompare(b.created) || a.id.localeCompare(b.id));
}

/**
 * @param {StoreLayout} layout
 * @param {string} id
 * @returns {ReleaseRecord | undefined}
 */
function readRecord(layout, id) {
  if (!hasRelease(layout, id)) return undefined;
  return readJson(layout.record(id));
}

/**
 * @param {StoreLayout} layout
 * @param {string} id
 * @returns {GateResult | undefined}
 */
const readGate = (layout, id) => readJson(layout.gate(id));

/**
 * @param {StoreLayout} layout
 * @param {string} id
 * @param {GateResult} result
 * @param {Fence} [fence] the store's lock's, under it
 */
function writeGate(layout, id, result, fence = () => {}) {
  fs.mkdirSync(path.dirname(layout.gate(id)), { recursive: true });
  // The servers refuse a preview of a release marked failed (releases/previews.js): marked before the result says
  // failed, unmarked only once it says passed, so a command stopped in between leaves it refused rather than open.
  if (!result.passed) {
    fence();
    fs.writeFileSync(layout.gateFailed(id), '');
  }
  writeJsonAtomically(layout.gate(id), result, fence);
  if (result.passed) {
    fence();
    fs.rmSync(layout.gateFailed(id), { force: true });
  }
}

/**
 * Appends a change of the live pointer to the history, on disk.
 * @param {StoreLayout} layout
 * @param {LiveChange} change
 * @param {Fence} [fence] the store's lock's, under it
 * @returns {() => void} undo: takes the line out again (when the pointer could not be changed after it)
 */
function appendHistory(layout, change, fence) {
  return appendLinesDurably(layout.history, `${JSON.stringify(change)}\n`, { fence });
}

module.exports = {
  writeJsonAtomically,
  listReleases,
  readRecord,
  readGate,
  writeGate,
  appendHistory,
};
