// The release store as the release commands use it: one object per remote whose every method is one change or one
// read, asynchronous, and says nothing of where the store keeps things. This is the folder backend (layout.js): each
// method is the operation of operations.js or canaryChanges.js on the remote's folder, under its lock. Both servers
// read the same folder themselves (livePointer.js, canaryInStore.js).
//
// A server that reads the store only when it loads its configuration (nginx) learns of a canary's change through
// `onCanaryChange`, which the commands give; a canary it could not be told of is withdrawn before anyone is judged on
// it, since it would be judged on a part of its visitors.
const fs = require('node:fs');
const { randomBytes } = require('node:crypto');
const { storeLayout } = require('./layout');
const { readCanary } = require('./canaryInStore');
const { readHistory } = require('./liveHistory');
const operations = require('./operations');
const changes = require('./canaryChanges');

/** @typedef {import('./records').GateResult} GateResult */
/** @typedef {import('./records').ReleaseRecord} ReleaseRecord */
/** @typedef {import('./canaryInStore').CanaryState} CanaryState */
/** @typedef {import('./canaryInStore').StepRecord} StepRecord */
/** @typedef {import('./canaryChanges').EndedCanary} EndedCanary */
/** @typedef {import('./canaryChanges').Outcome} Outcome */
/** @typedef {import('./liveHistory').LiveChange} LiveChange */
/** @typedef {(releaseDir: string) => Promise<GateResult>} Gate runs on the release's files, in a folder */

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
 * @property {(id: string, options: { allowFailed: boolean }) => Promise<{ failed: boolean, mark?: string }>} preview
 *   what a preview link of the release needs: refused when its gate failed, unless allowed (then a mark the link
 *   carries)
 * @property {() => Promise<{ canary?: CanaryState, problem?: string }>} canary the running canary
 * @property {() => Promise<EndedCanary[]>} endedCanaries oldest first
 * @property {(id: string, options: { steps: number[], settings: CanaryState['settings'], gate: Gate | null,
 *   now: () => number, leaseTtlMs?: number }) => Promise<CanaryState>} startCanary its command holds the canary's
 *   lease (canaryChanges.js) from then on
 * @property {(mine: CanaryState, at: number) => Promise<CanaryState>} renewLease refused once another command took it
 *   over, as every change of `mine` is
 * @property {(mine: CanaryState, passed: StepRecord, share: number, at: number) => Promise<CanaryState>} advanceCanary
 * @property {(mine: CanaryState, end: { outcome: Exclude<Outcome, 'aborted'>, reason: string,
 *   last: StepRecord | undefined, at: number }) => Promise<EndedCanary>} finishCanary
 * @property {(options: { now: () => number }) => Promise<EndedCanary | { problem: string }>} abortCanary
 * @property {(options?: { now?: () => number }) => Promise<CanaryState>} takeOverCanary once the other command's
 *   lease ran out, or its process is gone
 */

/**
 * @param {string} dir the store's folder
 * @param {{ onCanaryChange?: () => Promise<void> }} [options] onCanaryChange: after each change of a canary
 */
function openFolderStore(dir, { onCanaryChange = async () => {} } = {}) {
  /**
   * @param {string} remote
   * @returns {RemoteStore}
   */
  function remoteStore(remote) {
    const layout = storeLayout(dir, remote);
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
        await onCanaryChange();
        return result;
      };
    return {
      remote,
      where: layout.dir,
      publish: (buildDir, source) => operations.publish(layout, remote, buildDir, source),
      promote: (id, { gate }) => operations.promote(layout, remote, id, { gate }),
      rollback: () => operations.rollback(layout, remote),
      prune: ({ keep }) => operations.prune(layout, remote, { keep }),
      releases: async () => operations.describeReleases(layout),
      changes: async () => readHistory(layout),
      preview: async (id, { allowFailed }) => {
        operations.usableRelease(layout, remote, id);
        const failed = fs.existsSync(layout.gateFailed(id));
        if (!failed) return { failed };
        if (!allowFailed) {
          throw new operations.ReleaseError(
            `release ${id} of ${remote} failed the gate, and the servers refuse to preview it; ` +
              `npm run preview -- ${remote} ${id} --allow-failed prints a URL that shows it anyway`,
          );
        }
        // Random, so that only the links given out open it: the servers look for the mark's file.
        const mark = randomBytes(16).toString('hex');
        fs.mkdirSync(layout.previewMarks, { recursive: true });
        fs.writeFileSync(layout.previewMark(id, mark), '');
        return { failed, mark };
      },
      canary: async () => readCanary(layout),
      endedCanaries: async () => changes.endedCanaries(layout),
      startCanary: async (id, options) => {
        const state = await changes.startCanary(layout, remote, id, options);
        try {
          await onCanaryChange();
        } catch (error) {
          await changes.withdrawCanary(layout, remote, id);
          await onCanaryChange().catch(() => {});
          throw new operations.ReleaseError(`no canary started: ${error instanceof Error ? error.message : error}`);
        }
        return state;
      },
      renewLease: (mine, at) => changes.renewLease(layout, remote, mine, at),
      advanceCanary: thenTold((mine, passed, share, at) =>
        changes.advanceCanary(layout, remote, mine, passed, share, at),
      ),
      finishCanary: thenTold((mine, end) => changes.finishCanary(layout, remote, mine, end)),
      abortCanary: thenTold((options) => changes.abortCanary(layout, remote, options)),
      takeOverCanary: (options) => changes.takeOverCanary(layout, remote, options),
    };
  }
  return { where: dir, remote: remoteStore };
}

module.exports = { openFolderStore };
