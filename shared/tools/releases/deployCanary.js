// `npm run canary -- … --to <url>`: the deploy API gates and drives the canary; the command starts, resumes or aborts
// it there, and follows it, printing each step's line as the API's loop prints it, until it ends. A command that
// leaves (--detach, a runner cancelled) changes nothing: the API carries on.
const { setTimeout: sleep } = require('node:timers/promises');
const { deployPaths } = require('@nativegtm/contract/deployApi');
const { Refusal } = require('@nativegtm/server/commandLine');
const { lookEvery } = require('../canary/driveCanary');
const { deployCaller, json } = require('./deployClient');

/**
 * @param {string} remote
 * @param {string} to the API's URL, as --to gives it
 * @param {{ env?: NodeJS.ProcessEnv }} [options]
 */
function followCanary(remote, to, { env = process.env } = {}) {
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
      let from = 0;
      for (;;) {
        /** @type {{ run: import('@nativegtm/contract/deployApi').CanaryRun | null }} */
        const { run } = await call('GET', deployPaths.canaryRun(remote, from));
        if (!run || run.id !== state.id) {
          throw new Refusal(
            `the deploy API no longer drives the canary of release ${state.id} (it restarted?): ` +
              `npm run canary -- ${remote} --status --to ${to} says where it stands`,
          );
        }
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
