// `npm run canary -- … --to <url>`: the deploy API gates and drives the canary; the command starts, resumes or aborts
// it there, and follows it, printing each step's line as the API's loop prints it, until it ends. A command that
// leaves (--detach, a runner cancelled) changes nothing: the API carries on. An API restarting under a following
// command carries the canary on once its lease ran out; the command waits for that (the lease and a minute), then
// follows the new run.
const { setTimeout: sleep } = require('node:timers/promises');
const { deployPaths } = require('@nativegtm/contract/deployApi');
const { Refusal } = require('@nativegtm/server/commandLine');
const { leaseOf } = require('@nativegtm/store/canaryChanges');
const { lookEvery } = require('../canary/driveCanary');
const { durationText } = require('../canary/options');
const { DeployRefusal, deployCaller, json } = require('./deployClient');

/** How long a following command waits, beyond the canary's lease, for a restarted API to carry the canary on. */
const CARRY_ON_WAIT_MS = 60_000;

/**
 * Whether a request failed because the API is away for a moment (restarting): not reached, or its proxy answering
 * that nothing is behind it.
 * @param {unknown} error
 */
const apiAway = (error) =>
  error instanceof DeployRefusal && (error.status === undefined || [502, 503, 504].includes(error.status));

/**
 * @param {string} remote
 * @param {string} to the API's URL, as --to gives it
 * @param {{ env?: NodeJS.ProcessEnv, carryOnWaitMs?: number }} [options] carryOnWaitMs: how long a follower waits,
 *   beyond the lease, for a restarted API to carry the canary on
 */
function followCanary(remote, to, { env = process.env, carryOnWaitMs = CARRY_ON_WAIT_MS } = {}) {
  const { call } = deployCaller(to, env);
  return {
    /** @returns {Promise<string[]>} */
    status: async () => (await call('GET', deployPaths.canary(remote))).lines,
    /** @returns {Promise<{ id: string } | { problem: string }>} */
    abort: () => call('DELETE', deployPaths.canary(remote)),
    /**
     * @param {string} id
     * @param {{ texts: import('../canary/options').CanaryOptionTexts, skip: boolean }} request
     * @returns {Promise<import('@nativegtm/store/canaryInStore').CanaryState>}
     */
    start: async (id, { texts, skip }) =>
      (await call('POST', deployPaths.canary(remote), json({ id, options: texts, skipGate: skip }))).canary,
    /** @returns {Promise<import('@nativegtm/store/canaryInStore').CanaryState>} */
    resume: async () => (await call('POST', deployPaths.canaryResume(remote))).canary,
    /**
     * Prints the canary's lines as the API's loop prints them; resolves to how it ended.
     * @param {import('@nativegtm/store/canaryInStore').CanaryState} state the canary as it started
     * @param {(line: string) => void} print
     * @returns {Promise<import('@nativegtm/contract/deployApi').CanaryEnd>}
     */
    follow: async (state, print) => {
      // As often as the API's loop looks at the canary: no line can come sooner.
      const every = lookEvery(state.settings.stepTimeMs);
      const patience = leaseOf(state).ttlMs + carryOnWaitMs;
      // The run followed, by the lease epoch it took the canary with: a higher one is the API carrying it on.
      let epoch = leaseOf(state).epoch;
      let from = 0;
      /** @type {number | undefined} */
      let awaySince;
      for (;;) {
        /** @type {import('@nativegtm/contract/deployApi').CanaryRun | null | undefined} */
        const run = await call('GET', deployPaths.canaryRun(remote, from)).then(
          (answer) => answer.run,
          (error) => {
            if (apiAway(error)) return undefined;
            throw error;
          },
        );
        if (run && run.id === state.id && run.epoch > epoch) {
          // Carried on: the new run's lines, from its first.
          epoch = run.epoch;
          from = 0;
          continue;
        }
        if (!run || run.id !== state.id || run.epoch < epoch) {
          if (awaySince === undefined) {
            awaySince = Date.now();
            print(
              `  the deploy API does not drive it now (restarting?): waiting up to ${durationText(patience)} for it to carry it on`,
            );
          }
          if (Date.now() - awaySince > patience) {
            throw new Refusal(
              `the deploy API no longer drives the canary of release ${state.id} (it restarted?): ` +
                `npm run canary -- ${remote} --status --to ${to} says where it stands`,
            );
          }
          await sleep(every);
          continue;
        }
        awaySince = undefined;
        run.lines.forEach(print);
        from = run.next;
        if (run.problem !== undefined) throw new Refusal(run.problem);
        if (run.ended) return run.ended;
        await sleep(every);
      }
    },
  };
}

module.exports = { followCanary };
