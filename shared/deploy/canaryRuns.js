// The canaries the deploy API drives: one loop per remote (@nativegtm/tools's driveCanary, as the canary command runs
// it), started by a pipeline's request and carried on without it. A command following a canary reads its lines here;
// whoever started it, its changes are made as that request's actor. The loop holds the canary's lease while the API
// runs; an API stopped leaves the canary at its share until `npm run canary -- <remote> --resume` takes it over.
const { setTimeout: wait } = require('node:timers/promises');
const { driveCanary } = require('@nativegtm/tools/canary/driveCanary');

/** @typedef {import('@nativegtm/store/remoteStore').RemoteStore} RemoteStore */
/** @typedef {import('@nativegtm/store/canaryInStore').CanaryState} CanaryState */
/** @typedef {import('@nativegtm/contract/deployApi').CanaryRun} CanaryRun */

/**
 * @param {{ fieldRecords: import('@nativegtm/server/fieldData/fieldRecords').FieldRecordSource,
 *   logger: import('@nativegtm/server/observability/logger').Logger }} options
 */
function createCanaryRuns({ fieldRecords, logger }) {
  /**
   * The latest run of each remote (its lines, then how it ended), its loop's promise beside it.
   * @type {Map<string, { run: Omit<CanaryRun, 'next'>, done: Promise<void> }>}
   */
  const runs = new Map();
  // The API's stop cuts every loop's wait short: the loop ends there, changing nothing.
  const stopping = new AbortController();
  const sleep = (/** @type {number} */ ms) => wait(ms, undefined, { signal: stopping.signal });

  return {
    /**
     * Drives the canary `state` (just started or taken over) in the background.
     * @param {RemoteStore} store the remote's store, changed as the actor that started it
     * @param {CanaryState} state
     */
    drive(store, state) {
      /** @type {Omit<CanaryRun, 'next'>} */
      const run = { id: state.id, lines: [] };
      const print = (/** @type {string} */ line) => void run.lines.push(line);
      const done = driveCanary({ store, fieldRecords, state, print, sleep }).then(
        (ended) => {
          run.ended = ended;
          logger.info({ remote: store.remote, id: state.id, outcome: ended.outcome }, 'canary ended');
        },
        (error) => {
          if (stopping.signal.aborted) return;
          // An abort or a takeover elsewhere (the canary is no longer this loop's), or the store failing: the one line
          // a command prints.
          run.problem = String(/** @type {Error} */ (error).message);
          logger.warn({ remote: store.remote, id: state.id, problem: run.problem }, 'canary no longer driven');
        },
      );
      runs.set(store.remote, { run, done });
    },
    /**
     * The remote's latest run: its lines from the `from`th on.
     * @param {string} remote
     * @param {number} from
     * @returns {CanaryRun | null}
     */
    read(remote, from) {
      const run = runs.get(remote)?.run;
      return run ? { ...run, lines: run.lines.slice(from), next: run.lines.length } : null;
    },
    /** Ends every loop at its next wait, changing nothing more; resolves once they have. */
    async stop() {
      stopping.abort();
      await Promise.all([...runs.values()].map(({ done }) => done));
    },
  };
}

module.exports = { createCanaryRuns };
