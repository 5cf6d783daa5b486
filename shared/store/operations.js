// What the release commands do to a remote's store, on any backend (storeBackend.js): promote a release (after the
// gate), roll back, prune, list, and what a preview link needs. Each is one change that checks everything it needs
// before writing anything, and fails with a ReleaseError that says what and why.
const { randomBytes } = require('node:crypto');
const { StoreRefusal } = require('./storeRefusal');
const { RELEASE_ID } = require('@nativegtm/contract/releases');
const { liveAndPreviousOf } = require('./liveHistory');

/** @typedef {import('./storeBackend').StoreBackend} StoreBackend */
/** @typedef {import('./storeBackend').RemoteState} RemoteState */
/** @typedef {import('./records').GateResult} GateResult */
/** @typedef {(releaseDir: string) => Promise<GateResult>} Gate runs on the release's files, in a folder */

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
 * Refuses unless the release named `id` is recorded and its files can be served.
 * @param {RemoteState} state
 * @param {StoreBackend} backend
 * @param {string} id
 */
function usableRelease(state, backend, id) {
  if (!RELEASE_ID.test(id) || !state.record(id)) {
    throw new ReleaseError(`there is no release ${id} of ${backend.remote} in ${backend.where}`);
  }
  const problem = state.unusable(id);
  if (problem) throw new ReleaseError(`release ${id} of ${backend.remote} cannot be served: ${problem}`);
}

/**
 * Refuses while a canary of the remote runs: a promote, a rollback or a second canary would change the live release
 * under it. A canary whose state cannot be read refuses too: it may be running.
 * @param {RemoteState} state
 * @param {string} remote
 * @param {string} what e.g. "promote"
 */
function refuseWhileCanary(state, remote, what) {
  const { canary, problem } = state.canary();
  if (!canary && !problem) return;
  const running = canary ? `release ${canary.id} is at ${canary.share} %` : problem;
  throw new ReleaseError(
    `a canary of ${remote} is running (${running}): no ${what} until it ends. ` +
      `See it with npm run canary -- ${remote} --status; end it with --abort.`,
  );
}

/**
 * `backend.change` for a change refused while a canary runs (refuseWhileCanary), which says so even in the moment
 * the canary's command holds the store (it renews its lease every few seconds): a read without the lock refuses a
 * running one first; the change checks again under the lock, for one started since and for a state that cannot be
 * read (which may be a store that cannot be read at all: the change says so first).
 * @template T
 * @param {StoreBackend} backend
 * @param {string} label the change, for the audit and the lock's holder
 * @param {string} what e.g. "promote", for the refusal
 * @param {(state: RemoteState) => Promise<T>} work
 * @returns {Promise<T>}
 */
async function changeUnlessCanary(backend, label, what, work) {
  const { remote } = backend;
  await backend.read((state) => {
    if (state.canary().canary) refuseWhileCanary(state, remote, what);
  });
  return backend.change(label, async (state) => {
    refuseWhileCanary(state, remote, what);
    return work(state);
  });
}

/** @param {RemoteState} state */
const liveAndPrevious = (state) => liveAndPreviousOf(state.pointer(), state.history());

/**
 * Runs the gate on the release's files (or records it skipped when `gate` is null) and records its result, which
 * stays whether or not the change goes on.
 * @param {RemoteState} state
 * @param {StoreBackend} backend
 * @param {string} id
 * @param {Gate | null} gate
 * @param {string} at ISO time
 * @returns {Promise<GateResult>}
 */
async function gateRelease(state, backend, id, gate, at) {
  /** @type {GateResult} */
  let result = { at, passed: true, skipped: true, checks: [] };
  if (gate) {
    const files = await backend.releaseFiles(id);
    try {
      result = await gate(files.dir);
    } finally {
      await files.done();
    }
  }
  state.writeGate(id, result);
  return result;
}

/**
 * The refusal of a release whose gate failed, naming each failed check.
 * @param {string} remote
 * @param {string} id
 * @param {GateResult} result
 * @param {string} consequence e.g. "nothing changed"
 */
function gateFailed(remote, id, result, consequence) {
  const failed = result.checks.filter((check) => !check.ok);
  return new ReleaseError(
    `release ${id} of ${remote} failed the gate; ${consequence}.\n` +
      failed.map((check) => `  ✗ ${check.name}: ${check.detail ?? 'failed'}`).join('\n'),
  );
}

/**
 * Gates the release (unless `gate` is null), then makes it live. The gate's result is recorded even when it fails.
 * @param {StoreBackend} backend
 * @param {string} id
 * @param {{ gate: Gate | null, now?: () => Date }} options
 * @returns {Promise<{ gate: GateResult, from: string | undefined, changed: boolean }>}
 */
async function promote(backend, id, { gate, now = () => new Date() }) {
  const { remote } = backend;
  const outcome = await changeUnlessCanary(backend, `promote ${remote} ${id}`, 'promote', async (state) => {
    usableRelease(state, backend, id);
    const result = await gateRelease(state, backend, id, gate, now().toISOString());
    const { live } = liveAndPrevious(state);
    if (!result.passed) return { gate: result, from: live, changed: false };
    if (live === id) return { gate: result, from: live, changed: false };
    state.changeLive({ at: now().toISOString(), action: 'promote', id, from: live ?? null, by: backend.actor.by });
    return { gate: result, from: live, changed: true };
  });
  if (!outcome.gate.passed) throw gateFailed(remote, id, outcome.gate, 'nothing changed');
  return outcome;
}

/**
 * Makes the previously live release live again.
 * @param {StoreBackend} backend
 * @param {{ now?: () => Date }} [options]
 * @returns {Promise<{ id: string, from: string }>}
 */
function rollback(backend, { now = () => new Date() } = {}) {
  const { remote } = backend;
  return changeUnlessCanary(backend, `rollback ${remote}`, 'rollback', async (state) => {
    const { live, previous } = liveAndPrevious(state);
    if (!live) throw new ReleaseError(`no release of ${remote} is live: there is nothing to roll back`);
    if (!previous) throw new ReleaseError(`release ${live} of ${remote} is live, and no release was live before it`);
    usableRelease(state, backend, previous);
    state.changeLive({ at: now().toISOString(), action: 'rollback', id: previous, from: live, by: backend.actor.by });
    return { id: previous, from: live };
  });
}

/**
 * Removes the releases older than the newest `keep` (never the live one, the previous one, the one the last rollback
 * left, nor a running canary's), their records, the shared files no kept release names, and what interrupted
 * publishes left.
 * @param {StoreBackend} backend
 * @param {{ keep?: number }} [options]
 * @returns {Promise<{ removed: string[], kept: string[] }>}
 */
function prune(backend, { keep = DEFAULT_KEEP } = {}) {
  return backend.change(`prune ${backend.remote}`, async (state) => {
    const releases = state.releases();
    const { live, previous, replaced } = liveAndPrevious(state);
    const newest = keep > 0 ? releases.slice(-keep) : [];
    // A running canary's release is served to its visitors: kept too.
    const canary = state.canary().canary?.id;
    const protectedIds = new Set([live, previous, replaced, canary, ...newest.map((release) => release.id)]);
    const kept = releases.filter((release) => protectedIds.has(release.id));
    const removed = releases.filter((release) => !kept.includes(release));
    for (const release of removed) state.removeRelease(release.id);
    state.removeUnusedFiles(kept);
    return { removed: removed.map((release) => release.id), kept: kept.map((release) => release.id) };
  });
}

/**
 * Every release with its gate result and whether it is live or previous, oldest first.
 * @param {RemoteState} state
 */
function describeReleases(state) {
  const { live, previous, problem } = liveAndPrevious(state);
  const releases = state.releases().map((record) => ({
    ...record,
    gate: state.gate(record.id),
    live: record.id === live,
    previous: record.id === previous,
  }));
  return { releases, problem };
}

/**
 * What a preview link of the release needs: refused when its gate failed, unless allowed; then a mark the link
 * carries, random so that only the links given out open it (the servers look for it).
 * @param {StoreBackend} backend
 * @param {string} id
 * @param {{ allowFailed: boolean }} options
 * @returns {Promise<{ failed: boolean, mark?: string }>}
 */
async function preview(backend, id, { allowFailed }) {
  const { remote } = backend;
  // A read, unless a mark must be made: a preview of a release that passed needs no room in the store.
  const failed = await backend.read((state) => {
    usableRelease(state, backend, id);
    return state.gate(id)?.passed === false;
  });
  if (!failed) return { failed };
  if (!allowFailed) {
    throw new ReleaseError(
      `release ${id} of ${remote} failed the gate, and the servers refuse to preview it; ` +
        `npm run preview -- ${remote} ${id} --allow-failed prints a URL that shows it anyway`,
    );
  }
  return backend.change(`preview ${remote} ${id}`, async (state) => {
    usableRelease(state, backend, id);
    const mark = randomBytes(16).toString('hex');
    state.addPreviewMark(id, mark);
    return { failed, mark };
  });
}

module.exports = {
  ReleaseError,
  DEFAULT_KEEP,
  changeUnlessCanary,
  usableRelease,
  liveAndPrevious,
  gateRelease,
  gateFailed,
  promote,
  rollback,
  prune,
  describeReleases,
  preview,
};
