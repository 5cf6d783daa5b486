// What the release commands do to a remote's store, each under the store's lock (storeLock.js): publish a build,
// promote a release (after the gate), roll back, prune. Each checks everything it needs before changing anything,
// and fails with a ReleaseError that says what and why.
const fs = require('node:fs');
const path = require('node:path');
const { StoreRefusal } = require('./storeRefusal');
const { thisActor } = require('./actor');
const { RELEASE_ID } = require('@nativegtm/contract/releases');
const { liveAndPrevious } = require('./liveHistory');
const { readCanary } = require('./canaryInStore');
const { writeLivePointer } = require('./livePointer');
const { withStoreLock } = require('./storeLock');
const { publishRelease } = require('./publish');
const { metadataCheck } = require('./releaseFiles');
const { appendHistory, listReleases, readGate, readRecord, writeGate } = require('./records');

/** @typedef {import('./layout').StoreLayout} StoreLayout */
/** @typedef {import('./records').GateResult} GateResult */

/** A command's request cannot be carried out: nothing was changed. */
class ReleaseError extends StoreRefusal {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'ReleaseError';
  }
}

/** How many releases prune keeps by default (besides the live and the previous one). */
const DEFAULT_KEEP = 10;

/**
 * The store's remote folder exists and can be written: otherwise one clear error before anything is done.
 * @param {StoreLayout} layout
 */
function ensureWritable(layout) {
  try {
    fs.mkdirSync(layout.dir, { recursive: true });
    fs.accessSync(layout.dir, fs.constants.W_OK);
  } catch (error) {
    const code = /** @type {NodeJS.ErrnoException} */ (error).code;
    throw new ReleaseError(`the release store cannot be written at ${layout.dir} (${code})`);
  }
}

/**
 * The release named `id`, whose files are all there.
 * @param {StoreLayout} layout
 * @param {string} remote
 * @param {string} id
 */
function usableRelease(layout, remote, id) {
  if (!RELEASE_ID.test(id) || !readRecord(layout, id)) {
    throw new ReleaseError(`there is no release ${id} of ${remote} in ${path.dirname(layout.dir)}`);
  }
  const files = metadataCheck(layout.release(id), remote);
  if (!files.ok) throw new ReleaseError(`release ${id} of ${remote} cannot be served: ${files.detail}`);
  return layout.release(id);
}

/**
 * Refuses while a canary of the remote runs: a promote, a rollback or a second canary would change the live release
 * under it. A canary whose state cannot be read refuses too: it may be running.
 * @param {StoreLayout} layout
 * @param {string} remote
 * @param {string} what e.g. "promote"
 */
function refuseWhileCanary(layout, remote, what) {
  const { canary, problem } = readCanary(layout);
  if (!canary && !problem) return;
  const state = canary ? `release ${canary.id} is at ${canary.share} %` : problem;
  throw new ReleaseError(
    `a canary of ${remote} is running (${state}): no ${what} until it ends. ` +
      `See it with npm run canary -- ${remote} --status; end it with --abort.`,
  );
}

/**
 * Makes `change.id` live: the history line first (should the command stop between the two, the pointer still names
 * what was live), then the pointer; a pointer that cannot be turned takes the line out again, so a refusal changes
 * nothing.
 * @param {StoreLayout} layout
 * @param {import('./records').LiveChange} change
 */
function changeLive(layout, change) {
  const undo = appendHistory(layout, change);
  try {
    writeLivePointer(layout, change.id);
  } catch (error) {
    undo();
    throw error;
  }
}

/**
 * @param {StoreLayout} layout
 * @param {string} remote
 * @param {string} buildDir
 * @param {{ commit: string | null, dirty: boolean }} source
 */
async function publish(layout, remote, buildDir, source) {
  ensureWritable(layout);
  return withStoreLock(layout.lock, `release ${remote}`, async () => publishRelease(layout, remote, buildDir, source));
}

/**
 * Gates the release (unless `gate` is null), then makes it live. Resolves to the gate's result.
 * @param {StoreLayout} layout
 * @param {string} remote
 * @param {string} id
 * @param {{ gate: ((releaseDir: string) => Promise<GateResult>) | null, now?: () => Date }} options
 * @returns {Promise<{ gate: GateResult, from: string | undefined, changed: boolean }>}
 */
async function promote(layout, remote, id, { gate, now = () => new Date() }) {
  ensureWritable(layout);
  return withStoreLock(layout.lock, `promote ${remote} ${id}`, async () => {
    refuseWhileCanary(layout, remote, 'promote');
    const releaseDir = usableRelease(layout, remote, id);
    /** @type {GateResult} */
    const result = gate ? await gate(releaseDir) : { at: now().toISOString(), passed: true, skipped: true, checks: [] };
    writeGate(layout, id, result);
    if (!result.passed) {
      const failed = result.checks.filter((check) => !check.ok);
      throw new ReleaseError(
        `release ${id} of ${remote} failed the gate; nothing changed.\n` +
          failed.map((check) => `  ✗ ${check.name}: ${check.detail ?? 'failed'}`).join('\n'),
      );
    }
    const { live } = liveAndPrevious(layout);
    if (live === id) return { gate: result, from: live, changed: false };
    changeLive(layout, { at: now().toISOString(), action: 'promote', id, from: live ?? null, by: thisActor() });
    return { gate: result, from: live, changed: true };
  });
}

/**
 * Makes the previously live release live again.
 * @param {StoreLayout} layout
 * @param {string} remote
 * @param {{ now?: () => Date }} [options]
 * @returns {Promise<{ id: string, from: string }>}
 */
async function rollback(layout, remote, { now = () => new Date() } = {}) {
  ensureWritable(layout);
  return withStoreLock(layout.lock, `rollback ${remote}`, async () => {
    refuseWhileCanary(layout, remote, 'rollback');
    const { live, previous } = liveAndPrevious(layout);
    if (!live) throw new ReleaseError(`no release of ${remote} is live: there is nothing to roll back`);
    if (!previous) throw new ReleaseError(`release ${live} of ${remote} is live, and no release was live before it`);
    usableRelease(layout, remote, previous);
    changeLive(layout, { at: now().toISOString(), action: 'rollback', id: previous, from: live, by: thisActor() });
    return { id: previous, from: live };
  });
}

/**
 * Removes the releases older than the newest `keep` (never the live one, the previous one, the one the last rollback
 * left, nor a running canary's), their records, the shared files no kept release names, and what interrupted
 * publishes left.
 * @param {StoreLayout} layout
 * @param {string} remote
 * @param {{ keep?: number }} [options]
 * @returns {Promise<{ removed: string[], kept: string[] }>}
 */
async function prune(layout, remote, { keep = DEFAULT_KEEP } = {}) {
  ensureWritable(layout);
  return withStoreLock(layout.lock, `prune ${remote}`, async () => {
    const releases = listReleases(layout);
    const { live, previous, replaced } = liveAndPrevious(layout);
    const newest = keep > 0 ? releases.slice(-keep) : [];
    // A running canary's release is served to its visitors: kept too.
    const canary = readCanary(layout).canary?.id;
    const protectedIds = new Set([live, previous, replaced, canary, ...newest.map((release) => release.id)]);
    const kept = releases.filter((release) => protectedIds.has(release.id));
    const removed = releases.filter((release) => !kept.includes(release));
    fs.mkdirSync(layout.incoming, { recursive: true });
    for (const release of removed) {
      // Out of sight in one rename, then deleted: a server never sees half a release.
      const doomed = path.join(layout.incoming, `pruned-${release.id}`);
      fs.renameSync(layout.release(release.id), doomed);
      fs.rmSync(layout.record(release.id), { force: true });
      fs.rmSync(layout.gate(release.id), { force: true });
      fs.rmSync(layout.gateFailed(release.id), { force: true });
    }
    // The marks of failed releases' previews name their release: gone with it.
    for (const file of fs.existsSync(layout.previewMarks) ? fs.readdirSync(layout.previewMarks) : []) {
      if (removed.some((release) => file.startsWith(`${release.id}.`))) fs.rmSync(path.join(layout.previewMarks, file));
    }
    const named = new Set(kept.flatMap((release) => release.hashedFiles));
    for (const file of fs.existsSync(layout.assets) ? fs.readdirSync(layout.assets) : []) {
      if (!named.has(file)) fs.rmSync(path.join(layout.assets, file), { force: true });
    }
    // Nothing else writes here while the lock is held: whatever is left is from a command that stopped half-way.
    fs.rmSync(layout.incoming, { recursive: true, force: true });
    return { removed: removed.map((release) => release.id), kept: kept.map((release) => release.id) };
  });
}

/**
 * Every release with its gate result and whether it is live or previous, oldest first.
 * @param {StoreLayout} layout
 */
function describeReleases(layout) {
  const { live, previous, problem } = liveAndPrevious(layout);
  const releases = listReleases(layout).map((record) => ({
    ...record,
    gate: readGate(layout, record.id),
    live: record.id === live,
    previous: record.id === previous,
  }));
  return { releases, problem };
}

module.exports = {
  ReleaseError,
  DEFAULT_KEEP,
  ensureWritable,
  changeLive,
  refuseWhileCanary,
  publish,
  promote,
  rollback,
  prune,
  describeReleases,
  usableRelease,
};
