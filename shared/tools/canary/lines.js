// What the canary command prints when a canary starts, is aborted or ends: the same lines whether it drives the canary
// itself or follows the deploy API driving it.
const { Refusal } = require('@nativegtm/server/commandLine');
const { durationText } = require('./options');

/** @typedef {import('@nativegtm/store/canaryInStore').CanaryState} CanaryState */

/**
 * @param {string} remote
 * @param {Pick<CanaryState, 'id' | 'share' | 'steps' | 'settings'>} state
 * @param {boolean} resumed
 */
const startedLine = (remote, state, resumed) =>
  `${remote}: canary of release ${state.id} ${resumed ? 'resumed' : 'started'} at ${state.share} % ` +
  `(steps ${state.steps.join(', ')}; ${durationText(state.settings.stepTimeMs)} each; a control group of the same ` +
  'share on live)';

/**
 * @param {string} remote
 * @param {{ id: string } | { problem: string }} ended what abortCanary resolved to
 */
const abortedLine = (remote, ended) =>
  'id' in ended
    ? `${remote}: canary of release ${ended.id} aborted; everyone is on live.`
    : `${remote}: a canary state that could not be read (${ended.problem}) removed; everyone is on live.`;

/**
 * The line of a canary's end; a Refusal (exit 1) unless it was promoted.
 * @param {string} remote
 * @param {import('@nativegtm/contract/deployApi').CanaryEnd} ended as the store recorded it, or the API answered it
 */
function endedLine(remote, ended) {
  if (ended.outcome === 'promoted') {
    return `${remote}: release ${ended.id} is live (${ended.reason}; npm run rollback -- ${remote} undoes it).`;
  }
  const at = ended.verdicts[ended.verdicts.length - 1]?.share;
  throw new Refusal(
    ended.outcome === 'rolled back'
      ? `rolled back at ${at} %, everyone is on live: ${ended.reason}`
      : `ended without a verdict at ${at} %, everyone is on live: ${ended.reason}`,
  );
}

module.exports = { startedLine, abortedLine, endedLine };
