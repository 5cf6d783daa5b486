// The canaries the deploy API drives: one loop per remote (@nativegtm/tools's driveCanary, as the canary command runs
// it), started by a pipeline's request and carried on without it. A command following a canary reads its lines here;
// whoever started it, its changes are made as that request's actor. The loop holds the canary's lease while the API
// runs; an API stopped leaves the canary at its share until `npm run canary -- <remote> --resume` takes it over.
const { driveCanary } = require('@nativegtm/tools/canary/driveCanary');

/** @typedef {import('@nativegtm/store/remoteStore').RemoteStore} RemoteStore */
/** @typedef {import('@nativegtm/store/canaryInStore').CanaryState} CanaryState */
/** @typedef {import('@nativegtm/contract/deployApi').CanaryRun} CanaryRun */

/** Thrown into a loop's wait once the API stops: the loop ends there, changing nothing. */
class Stopped extends Error {}

/**
 * @param {{ fieldRecords: import('@nativegtm/server/fieldData/fieldRecords').FieldRecordSource,
 *   logger: import('@nativegtm/server/observability/logger').Logger }} options
 */
function createCanaryRuns({ fieldRecords, logger }) {
  /** The latest run of each remote, its loop's promise beside it. @type {Map<string, { run: CanaryRun, done: Promise<void> }>} */
  const runs = new Map();
  let stopped = false;
  /** @type {Set<() => void>} */
  const waking = new Set();

  /**
   * A wait the API's stop cuts short.
   * @param {number} ms
   */
  const sleep = (ms) =>
    new Promise((resolve, reject) => {
      if (stopped) return reject(new Stopped());
      const stop = () => {
        clearTimeout(timer);
        reject(new Stopped());
      };
      const timer = setTimeout(() => {
        waking.delete(stop);
        resolve(undefined);
      }, ms);
      waking.add(stop);
    });

  return {
    /**
     * Drives the canary `state` (just started or taken over) in the background.
     * @param {RemoteStore} store the remote's store, changed as the actor that started it
     * @param {CanaryState} state
     */
    drive(store, state) {
      /** @type {CanaryRun} */
      const run = { id: state.id, lines: [], next: 0 };
      const print = (/** @type {string} */ line) => {
        run.lines.push(line);
        run.next = run.lines.length;
      };
      const done = driveCanary({ store, fieldRecords, state, print, sleep }).then(
        (ended) => {
          run.ended = ended;
          logger.info({ remote: store.remote, id: state.id, outcome: ended.outcome }, 'canary ended');
        },
        (error) => {
          if (error instanceof Stopped) return;
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
      return run ? { ...run, lines: run.lines.slice(from) } : null;
    },
    /** Ends every loop at its next wait, changing nothing more; resolves once they have. */
    async stop() {
      stopped = true;
      for (const stop of waking) stop();
      waking.clear();
      await Promise.all([...runs.values()].map(({ done }) => done));
    },
  };
}

module.exports = { createCanaryRuns };
