// The live pointer of a remote: a symbolic link `live` -> `<id>` in its store folder. A link is replaced in one
// rename(2), so a server reading it sees the old target or the new one, never half of either; nginx follows it per
// request (no reload), and the built-in server reads it at most every CHECK_INTERVAL_MS.
const fs = require('node:fs');
const { RELEASE_ID } = require('@nativegtm/contract/releases');
const { replaceLinkDurably } = require('./durableFiles');
const { CHECK_INTERVAL_MS, lookedAtMostEvery } = require('./fileReader');
const { hasRelease } = require('./releaseInStore');

/** @typedef {import('./layout').StoreLayout} StoreLayout */

/**
 * What the pointer names now: a release id whose files are there, nothing (no release is live), or a problem.
 * @param {StoreLayout} layout
 * @returns {{ id?: string, problem?: string }} id, or a problem, or neither (no release is live)
 */
function readLivePointer(layout) {
  let target;
  try {
    target = fs.readlinkSync(layout.live);
  } catch (error) {
    const code = /** @type {NodeJS.ErrnoException} */ (error).code;
    if (code === 'ENOENT') return {};
    return { problem: `the live pointer ${layout.live} is not a link to a release (${code})` };
  }
  if (!RELEASE_ID.test(target)) return { problem: `the live pointer names "${target}", which is not a release id` };
  if (!hasRelease(layout, target)) {
    return { problem: `the live pointer names release ${target}, whose files are missing` };
  }
  return { id: target };
}

/**
 * Makes `id` live: a new link beside the old one, renamed over it, on disk before this returns.
 * @param {StoreLayout} layout
 * @param {string} id
 * @param {import('./storeLock').Fence} [fence] the store's lock's, under it
 */
function writeLivePointer(layout, id, fence) {
  replaceLinkDurably(layout.live, id, { fence });
}

/**
 * The live release as a server serves it: the pointer, looked at no more often than every `checkIntervalMs`. A
 * pointer that names no usable release never takes the remote down: the last good release stays live, and the
 * problem is logged once per distinct problem. onChange hears of each new live release (for the logs).
 * @param {StoreLayout} layout
 * @param {{ onProblem?: (problem: string, keeping: string | undefined) => void,
 *   onChange?: (id: string | undefined) => void, checkIntervalMs?: number, now?: () => number }} [options]
 * @returns {() => string | undefined} the live release's id, if any
 */
function liveRelease(
  layout,
  { onProblem = () => {}, onChange = () => {}, checkIntervalMs = CHECK_INTERVAL_MS, now = Date.now } = {},
) {
  /** @type {string | undefined} */
  let good;
  /** @type {string | undefined} */
  let lastProblem;
  return lookedAtMostEvery(
    () => {
      const pointer = readLivePointer(layout);
      if (pointer.problem === undefined) {
        if (pointer.id !== good) onChange(pointer.id);
        good = pointer.id;
        lastProblem = undefined;
      } else if (pointer.problem !== lastProblem) {
        lastProblem = pointer.problem;
        onProblem(pointer.problem, good);
      }
      return good;
    },
    { checkIntervalMs, now },
  );
}

module.exports = { readLivePointer, writeLivePointer, liveRelease };
