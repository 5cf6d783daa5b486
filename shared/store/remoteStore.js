// The release store as the release commands use it: one object per remote whose every method is one change or one
// read, asynchronous, and says nothing of where the store keeps things. The rules are operations.js and
// canaryChanges.js; the backend (storeBackend.js) is the folder store or PostgreSQL with object storage.
//
// What serves the store and reads it only when it loads its configuration (nginx on a folder) is told of a canary's
// change by the backend; a canary it could not be told of is withdrawn before anyone is judged on it, since it would
// be judged on a part of its visitors.
const operations = require('./operations');
const changes = require('./canaryChanges');

/** @typedef {import('./records').GateResult} GateResult */
/** @typedef {import('./canaryInStore').CanaryState} CanaryState */
/** @typedef {import('./canaryInStore').StepRecord} StepRecord */
/** @typedef {import('./canaryChanges').EndedCanary} EndedCanary */
/** @typedef {import('./canaryChanges').Outcome} Outcome */
/** @typedef {import('./liveHistory').LiveChange} LiveChange */
/** @typedef {import('./operations').Gate} Gate */

/**
 * One remote's releases in the store.
 * @typedef {object} RemoteStore
 * @property {string} remote
 * @property {string} where where its releases are, for messages
 * @property {(buildDir: string, source: { commit: string | null, dirty: boolean }) =>
 *   Promise<{ id: string, existed: boolean }>} publish a build as an immutable release (the same files: the same id)
 * @property {(id: string, options: { gate: Gate | null }) =>
 *   Promise<{ gate: GateResult, from: string | undefined, changed: boolean }>} promote gates it (unless null), then
 *   makes it live
 * @property {() => Promise<{ id: string, from: string }>} rollback makes the previous release live again
 * @property {(options: { keep: number }) => Promise<{ removed: string[], kept: string[] }>} prune
 * @property {() => Promise<ReturnType<typeof operations.describeReleases>>} releases every release, oldest first,
 *   with its gate's result and whether it is live or previous
 * @property {() => Promise<LiveChange[]>} changes every change of what is live, oldest first, with who made it
 * @property {() => Promise<import('./audit').AuditEntry[]>} audit every change of the remote's store, oldest first
 * @property {(id: string, options: { allowFailed: boolean }) => Promise<{ failed: boolean, mark?: string }>} preview
 *   what a preview link of the release needs: refused when its gate failed, unless allowed (then a mark the link
 *   carries)
 * @property {() => Promise<{ canary?: CanaryState, problem?: string }>} canary the running canary
 * @property {() => Promise<EndedCanary[]>} endedCanaries oldest first
 * @property {(id: string, options: { steps: number[], settings: CanaryState['settings'], gate: Gate | null,
 *   now: () => number, leaseTtlMs?: number, byApi?: boolean }) => Promise<CanaryState>} startCanary its command
 *   holds the canary's lease (canaryChanges.js) from then on
 * @property {(mine: CanaryState, at: number) => Promise<CanaryState>} renewLease refused once another command took it
 *   over, as every change of `mine` is
 * @property {(mine: CanaryState, passed: StepRecord, share: number, at: number) => Promise<CanaryState>} advanceCanary
 * @property {(mine: CanaryState, end: { outcome: Exclude<Outcome, 'aborted'>, reason: string,
 *   last: StepRecord | undefined, at: number }) => Promise<EndedCanary>} finishCanary
 * @property {(options: { now: () => number }) => Promise<EndedCanary | { problem: string }>} abortCanary
 * @property {(options?: { now?: () => number, byApi?: boolean, carryOn?: boolean }) => Promise<CanaryState>}
 *   takeOverCanary once the other command's lease ran out, or its process is gone
 */

/**
 * @param {import('./storeBackend').StoreBackend} backend
 * @returns {RemoteStore}
 */
function remoteStore(backend) {
  /**
   * @template {unknown[]} A
   * @template T
   * @param {(...args: A) => Promise<T>} change
   * @returns {(...args: A) => Promise<T>}
   */
  const thenTold =
    (change) =>
    async (...args) => {
      const result = await change(...args);
      await backend.told();
      return result;
    };
  return {
    remote: backend.remote,
    where: backend.where,
    publish: (buildDir, source) => backend.publish(buildDir, source),
    promote: (id, { gate }) => operations.promote(backend, id, { gate }),
    rollback: () => operations.rollback(backend),
    prune: ({ keep }) => operations.prune(backend, { keep }),
    releases: () => backend.read(operations.describeReleases),
    changes: () => backend.read((state) => state.history()),
    audit: () => backend.audit(),
    preview: (id, options) => operations.preview(backend, id, options),
    canary: () => backend.read((state) => state.canary()),
    endedCanaries: () => backend.read((state) => state.endedCanaries()),
    startCanary: async (id, options) => {
      const state = await changes.startCanary(backend, id, options);
      try {
        await backend.told();
      } catch (error) {
        await changes.withdrawCanary(backend, id);
        await backend.told().catch(() => {});
        throw new operations.ReleaseError(`no canary started: ${error instanceof Error ? error.message : error}`);
      }
      return state;
    },
    renewLease: (mine, at) => changes.renewLease(backend, mine, at),
    advanceCanary: thenTold((mine, passed, share, at) => changes.advanceCanary(backend, mine, passed, share, at)),
    finishCanary: thenTold((mine, end) => changes.finishCanary(backend, mine, end)),
    abortCanary: thenTold((options) => changes.abortCanary(backend, options)),
    takeOverCanary: (options) => changes.takeOverCanary(backend, options),
  };
}

module.exports = { remoteStore };
