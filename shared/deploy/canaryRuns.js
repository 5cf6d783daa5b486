// The canaries the deploy API drives: one loop per remote (@nativegtm/tools's driveCanary, as the canary command runs
// it), started by a pipeline's request and carried on without it. A command following a canary reads its lines here;
// whoever started it, its changes are made as that request's actor. The loop holds the canary's lease while the API
// runs. The canary's state is marked as a deploy API's (CanaryState's api), and every deploy API on the store looks
// for such canaries whose lease ran out (their API restarted, or its node is gone) and carries them on, as the actor
// that started them: an API restart pauses a canary, it does not strand it. A canary a command runs is never taken.
const { setTimeout: wait } = require('node:timers/promises');
const os = require('node:os');
const { machineActor } = require('@nativegtm/store/actor');
const { leaseOf, takeOverable } = require('@nativegtm/store/canaryChanges');
const { driveCanary } = require('@nativegtm/tools/canary/driveCanary');

/** @typedef {import('@nativegtm/store/remoteStore').RemoteStore} RemoteStore */
/** @typedef {import('@nativegtm/store/canaryInStore').CanaryState} CanaryState */
/** @typedef {import('@nativegtm/store/actor').Actor} Actor */
/** @typedef {import('@nativegtm/contract/deployApi').CanaryRun} CanaryRun */
/**
 * The remotes whose canaries an API looks for, and their stores as an actor.
 * @typedef {{ openRemote: (remote: string, actor: Actor) => RemoteStore, remotes: readonly string[] }} Watched
 */

/**
 * @param {{ fieldRecords: import('@nativegtm/server/fieldData/fieldRecords').FieldRecordSource,
 *   logger: import('@nativegtm/server/observability/logger').Logger,
 *   metrics?: import('./metrics').DeployMetrics }} options
 */
function createCanaryRuns({ fieldRecords, logger, metrics }) {
  /**
   * The latest run of each remote (its lines, then how it ended), its loop's promise beside it.
   * @type {Map<string, { run: Omit<CanaryRun, 'next'>, done: Promise<void> }>}
   */
  const runs = new Map();
  /** @type {Promise<void>[]} */
  const watches = [];
  // The API's stop cuts every loop's wait short: the loop ends there, changing nothing.
  const stopping = new AbortController();
  const sleep = (/** @type {number} */ ms) => wait(ms, undefined, { signal: stopping.signal });

  /**
   * Drives the canary `state` (just started or taken over) in the background.
   * @param {RemoteStore} store the remote's store, changed as the actor that started it
   * @param {CanaryState} state
   * @param {string[]} [first] the run's first lines
   */
  function drive(store, state, first = []) {
    /** @type {Omit<CanaryRun, 'next'>} */
    const run = { id: state.id, epoch: leaseOf(state).epoch, lines: [...first] };
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
  }

  /**
   * Whether a loop of this process drives the remote's canary now.
   * @param {string} remote
   */
  const driving = (remote) => {
    const run = runs.get(remote)?.run;
    return run !== undefined && run.ended === undefined && run.problem === undefined;
  };

  metrics?.countDriven(() => [...runs.keys()].filter(driving).length);

  /**
   * Takes over the remote's canary when a deploy API drove it and its lease ran out, and drives it here.
   * @param {(remote: string, actor: Actor) => RemoteStore} openRemote
   * @param {string} remote
   */
  async function carryOn(openRemote, remote) {
    // Reading records nothing: any actor will do.
    const { canary } = await openRemote(remote, machineActor()).canary();
    if (!canary?.api || !takeOverable(canary, Date.now())) return;
    const store = openRemote(remote, canary.api.actor);
    const state = await store.takeOverCanary({ carryOn: true });
    const { host, pid } = canary.command;
    const line =
      `${remote}: canary of release ${state.id} carried on at ${state.share} % by the deploy API ` +
      `(pid ${process.pid} on ${os.hostname()}): pid ${pid} on ${host} had stopped driving it`;
    logger.info({ remote, id: state.id, share: state.share, from: { host, pid } }, 'canary carried on');
    metrics?.carriedOn();
    drive(store, state, [line]);
  }

  /**
   * One look at each remote for a canary a deploy API drove whose lease ran out, carried on here when there is one.
   * Every API on the store looks; the store lets one take each canary over, and the others find it held again.
   * @param {Watched} watched
   */
  async function look({ openRemote, remotes }) {
    for (const remote of remotes) {
      if (driving(remote) || stopping.signal.aborted) continue;
      try {
        await carryOn(openRemote, remote);
      } catch (error) {
        // Another API took it first, the store is busy or down: the next look tries again.
        logger.warn({ remote, problem: String(/** @type {Error} */ (error).message) }, 'canary not carried on');
      }
    }
  }

  return {
    drive,
    look,
    /**
     * Looks every `everyMs` until the API stops.
     * @param {Watched & { everyMs: number }} watched
     */
    watch({ everyMs, ...watched }) {
      watches.push(
        (async () => {
          while (!stopping.signal.aborted) {
            await look(watched);
            await sleep(everyMs).catch(() => {});
          }
        })(),
      );
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
      await Promise.all([...watches, ...[...runs.values()].map(({ done }) => done)]);
    },
  };
}

module.exports = { createCanaryRuns };
