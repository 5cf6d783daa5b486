// A remote's canary in the release store, as the canary command leaves it and both servers read it: never half a
// state, even when the command is killed while writing.
//
//   <store>/<remote>/canary                         a symbolic link to canaries/<n>, replaced atomically; no link: no
//                                                   canary runs
//   <store>/<remote>/canaries/<n>/canary.json       the canary: its release, its share now, its steps, its verdicts
//                                                   so far, the command running it (what both servers read)
//   <store>/<remote>/nginx-canary/sides.map         nginx's view of it, written from canary.json whenever nginx is
//   <store>/<remote>/nginx-canary/listed.map        configured or reloaded (writeNginxCanaryMaps): the side of each
//   <store>/<remote>/nginx-canary/release.map       bucket, what documents list, the release's path
//
// nginx reads the maps when it loads its configuration (shared/tools/nginx/releaseLocations.js), not per request:
// the canary command reloads it after each change (@nativegtm/server/nginxReload.js), so that a document outside any
// canary costs nginx nothing for canaries.
//
// Each change (a new share, a verdict) is written as a new folder, complete before the link is turned to it; a folder
// the link never named (a command killed while writing it) is removed by the next write. The folder before the
// current one is kept, for a request that resolved the link just before it turned.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { BUCKETS, canariesContent, sideOf } = require('@nativegtm/contract/canaryBuckets');
const { RELEASE_ID, RELEASE_PATH_PREFIX } = require('@nativegtm/contract/releases');
const { isActor } = require('./actor');
const { isTime } = require('./canaryLease');
const { replaceLinkDurably, syncDirectory, writeFileDurably } = require('./durableFiles');
const { CHECK_INTERVAL_MS, lookedAtMostEvery } = require('./fileReader');

/** @typedef {import('./layout').StoreLayout} StoreLayout */

/**
 * One step's outcome, and the views each side had.
 * @typedef {{ share: number, verdict: 'pass' | 'fail' | 'no-verdict', reason: string, at: string,
 *   views?: { canary: number, control: number } }} StepRecord
 */

/**
 * @typedef {object} CanaryState
 * @property {1} v
 * @property {string} id the release in the canary
 * @property {number} share the canary's share of visitors now, 0-100
 * @property {number[]} steps the shares it goes through, the last one 100 (the promote)
 * @property {string} startedAt ISO time
 * @property {string} stepStartedAt ISO time the current share began
 * @property {{ stepTimeMs: number, minViews: number, maxWaitMs: number, minNetworks?: number, networkShare?: number,
 *   errorMargin?: number, p75Margin?: number, alpha?: number }} settings the command's options (minNetworks,
 *   networkShare, errorMargin, p75Margin, alpha: the verdict's thresholds where they are not its defaults)
 * @property {StepRecord[]} verdicts the steps judged so far, in order
 * @property {{ host: string, pid: number, space?: string }} command the process running it (space: processSpace(),
 *   where the system tells it)
 * @property {CanaryLease} [lease] that process's lease (canaryChanges.js); a state written before leases has none, and
 *   counts as one that ran out
 * @property {{ actor: import('./actor').Actor }} [api] set while a deploy API drives it: the actor whose request
 *   started it or took it over, as whom any deploy API on the store carries it on once its lease runs out
 */

/**
 * The lease of the command running a canary: it may change the canary while no other command took it over (epoch
 * grows with each take-over), and another may take it over once it ran out (expiresAt, set by each change of the
 * canary and moved on by each renewal: canaryLease.js).
 * @typedef {{ epoch: number, ttlMs: number, expiresAt: string }} CanaryLease
 */

const STATE_FILE = 'canary.json';
/** The files of a canary's folder nginx reads. */
const CANARY_FILES = /** @type {const} */ ({ sides: 'sides.map', listed: 'listed.map', release: 'release.map' });
/** The key of the one entry of the listed and release maps (nginx maps a constant to each). */
const LISTED_KEY = 'listed';

/** @param {unknown} value */
const isShare = (value) =>
  Number.isInteger(value) && /** @type {number} */ (value) >= 0 && /** @type {number} */ (value) <= 100;

/**
 * Why a state is not one this version writes, or undefined when it is.
 * @param {any} state
 * @returns {string | undefined}
 */
function problemOf(state) {
  if (state?.v !== 1) return 'not a canary state of version 1';
  if (typeof state.id !== 'string' || !RELEASE_ID.test(state.id)) return 'no release id';
  if (!isShare(state.share)) return 'no share from 0 to 100';
  if (!Array.isArray(state.steps) || state.steps.length === 0 || !state.steps.every(isShare)) return 'no steps';
  if (!isTime(state.startedAt) || !isTime(state.stepStartedAt)) return 'no start times';
  const settings = state.settings ?? {};
  if (![settings.stepTimeMs, settings.minViews, settings.maxWaitMs].every((n) => Number.isInteger(n) && n >= 0)) {
    return 'no settings';
  }
  const margins = [
    settings.minNetworks,
    settings.networkShare,
    settings.errorMargin,
    settings.p75Margin,
    settings.alpha,
  ].filter((n) => n !== undefined);
  if (!margins.every((n) => typeof n === 'number' && Number.isFinite(n) && n >= 0)) return 'no thresholds';
  if (!Array.isArray(state.verdicts)) return 'no verdicts';
  if (typeof state.command?.host !== 'string' || !Number.isInteger(state.command?.pid)) return 'no command';
  if (state.command.space !== undefined && typeof state.command.space !== 'string') return 'no command';
  if (state.api !== undefined && !isActor(state.api?.actor)) return 'no actor for the deploy API';
  const lease = state.lease;
  if (
    lease !== undefined &&
    !(Number.isInteger(lease?.epoch) && lease.epoch >= 1 && Number.isInteger(lease.ttlMs) && isTime(lease.expiresAt))
  ) {
    return 'no lease';
  }
  return undefined;
}

/**
 * The remote's canary as the store says now: its state, nothing (no canary runs), or a problem.
 * @param {StoreLayout} layout
 * @returns {{ canary?: CanaryState, problem?: string }}
 */
function readCanary(layout) {
  let text;
  try {
    text = fs.readFileSync(path.join(layout.canary, STATE_FILE), 'utf8');
  } catch (error) {
    const code = /** @type {NodeJS.ErrnoException} */ (error).code;
    if (code === 'ENOENT') return fs.existsSync(layout.canary) ? { problem: 'the canary link names no state' } : {};
    return { problem: `the canary's state cannot be read (${code})` };
  }
  let state;
  try {
    state = JSON.parse(text);
  } catch {
    return { problem: "the canary's state is not JSON" };
  }
  const problem = problemOf(state);
  return problem ? { problem: `the canary's state has ${problem}` } : { canary: state };
}

/**
 * nginx's map entries from the bucket cookie's value to the side it is on; a bucket outside both has none (the map's
 * default: no side).
 * @param {string} remote
 * @param {number} share
 */
function sidesMap(remote, share) {
  const lines = [];
  for (let bucket = 0; bucket < BUCKETS; bucket += 1) {
    const side = sideOf(bucket, remote, share);
    if (side !== 'outside') lines.push(`${bucket} ${side};`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Writes nginx's view of the remote's canary (the entries of its maps: the side of each bucket, what documents list,
 * the release's path) from the state as the built-in server reads it: the same readCanary, so that a state it cannot
 * use puts no one in the canary on nginx either. Empty files when no canary runs. nginx reads them when it loads its
 * configuration, so whatever reloads it writes them first (@nativegtm/server/nginxReload.js). Each file is replaced
 * whole: an nginx loading at that moment reads the old one or the new one.
 * @param {StoreLayout} layout
 * @param {string} remote
 * @returns {string | undefined} the state's problem, if it has one
 */
function writeNginxCanaryMaps(layout, remote) {
  const { canary, problem } = readCanary(layout);
  const entries = {
    [CANARY_FILES.sides]: canary ? sidesMap(remote, canary.share) : '',
    [CANARY_FILES.listed]: canary
      ? `${LISTED_KEY} ${JSON.stringify(canariesContent([{ remote, share: canary.share }]))};\n`
      : '',
    // The release's own path: an nginx not yet reloaded after the canary ended still serves its visitors it whole.
    [CANARY_FILES.release]: canary ? `${LISTED_KEY} ${JSON.stringify(`${RELEASE_PATH_PREFIX}${canary.id}/`)};\n` : '',
  };
  fs.mkdirSync(layout.nginxCanary, { recursive: true });
  for (const [name, text] of Object.entries(entries)) writeFileDurably(path.join(layout.nginxCanary, name), text);
  return problem;
}

/**
 * Writes the canary's new state: a new folder, complete, then the link turned to it.
 * @param {StoreLayout} layout
 * @param {string} remote
 * @param {CanaryState} state
 * @param {import('./storeLock').Fence} [fence] the store's lock's, under it: checked before the link is turned and
 *   before each folder is removed (the new folder is seen by no one until then)
 */
function writeCanary(layout, remote, state, fence = () => {}) {
  const problem = problemOf(state);
  if (problem) throw new Error(`Not a canary state: ${problem}.`);
  const dir = layout.canaries;
  fs.mkdirSync(dir, { recursive: true });
  const numbers = fs
    .readdirSync(dir)
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
  const next = String(Math.max(0, ...numbers) + 1);
  const folder = path.join(dir, next);
  const previous = readLink(layout);
  // Outside the try: a folder of that number already there is not this write's to remove.
  fs.mkdirSync(folder);
  try {
    // On disk before the link names the folder: a crash after the turn never shows an empty one.
    writeFileDurably(path.join(folder, STATE_FILE), `${JSON.stringify(state, null, 2)}\n`);
    syncDirectory(dir);
    // Relative, as the live pointer is: the store can be moved or mounted elsewhere whole.
    replaceLinkDurably(layout.canary, path.relative(layout.dir, folder), { fence });
  } catch (error) {
    // A write that failed (a full disk) leaves the canary as it was, and no folder the link never named.
    fs.rmSync(folder, { recursive: true, force: true });
    throw error;
  }
  const keep = new Set([next, previous].filter((name) => name !== undefined));
  for (const name of fs.readdirSync(dir)) {
    if (keep.has(name)) continue;
    fence();
    fs.rmSync(path.join(dir, name), { recursive: true, force: true });
  }
}

/**
 * The number of the folder the canary link names, if any.
 * @param {StoreLayout} layout
 */
function readLink(layout) {
  try {
    return path.basename(fs.readlinkSync(layout.canary));
  } catch {
    return undefined;
  }
}

/**
 * Ends the remote's canary: the link goes first (everyone is on live at once), then its folders.
 * @param {StoreLayout} layout
 * @param {import('./storeLock').Fence} [fence] the store's lock's, under it
 * @returns {boolean} whether a canary was running
 */
function endCanary(layout, fence = () => {}) {
  let ended = true;
  fence();
  try {
    fs.unlinkSync(layout.canary);
  } catch {
    ended = false;
  }
  if (ended) syncDirectory(layout.dir);
  fence();
  fs.rmSync(layout.canaries, { recursive: true, force: true });
  return ended;
}

/**
 * The remote's canary as a server serves it: the store looked at no more often than every `checkIntervalMs`. A state
 * that cannot be read puts no one in a canary: everyone gets live, and the problem is told once per distinct problem.
 * @param {StoreLayout} layout
 * @param {{ onProblem?: (problem: string) => void, checkIntervalMs?: number, now?: () => number }} [options]
 * @returns {() => CanaryState | undefined}
 */
function runningCanary(layout, { onProblem = () => {}, checkIntervalMs = CHECK_INTERVAL_MS, now = Date.now } = {}) {
  /** @type {string | undefined} */
  let lastProblem;
  return lookedAtMostEvery(
    () => {
      const { canary, problem } = readCanary(layout);
      if (problem !== undefined && problem !== lastProblem) onProblem(problem);
      lastProblem = problem;
      return canary;
    },
    { checkIntervalMs, now },
  );
}

/**
 * The key that names one canary of a remote, for as long as it runs (steps and a resume keep it) and never again: its
 * start, in milliseconds in base 36. Field-data tokens carry it (fieldData/fieldTokens.js), so that a canary counts
 * only the documents served for it.
 * @param {Pick<CanaryState, 'startedAt'>} state
 */
const canaryKey = (state) => Date.parse(state.startedAt).toString(36);

/** @type {string | undefined | null} null: not read yet */
let space = null;

/**
 * The space this process's pid is one of: the machine's boot and the pid namespace (Linux's /proc). Two containers
 * may share a host name and each have a process of one pid; a pid means something only within one space. Undefined
 * where the system does not tell.
 */
function processSpace() {
  if (space !== null) return space;
  try {
    const boot = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    space = `${boot}/${fs.readlinkSync('/proc/self/ns/pid')}`;
  } catch {
    space = undefined;
  }
  return space;
}

/** The command running a canary, as its state names it: this machine's host name, this process and its space. */
const thisCommand = () => {
  const here = processSpace();
  return { host: os.hostname(), pid: process.pid, ...(here === undefined ? {} : { space: here }) };
};

module.exports = {
  CANARY_FILES,
  LISTED_KEY,
  canaryKey,
  readCanary,
  writeCanary,
  writeNginxCanaryMaps,
  endCanary,
  runningCanary,
  processSpace,
  thisCommand,
  canaryStateProblem: problemOf,
};
