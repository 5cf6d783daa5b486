// The gate's verdict, in one rule: a release fails when any check judged it failed, passes only when every check
// judged it passed, and otherwise the gate could not judge it. A check could not judge when what it read says nothing
// of the release (the page's HTML did not come in time, the browser ran out of time before anything went wrong, the
// gate's site or browser did not work); it is then tried once more (the machine busy for a moment). A gate that could
// not judge neither passes nor fails the release: the commands exit 3 (@nativegtm/server/commandLine's Undecided),
// the deploy API answers 503, and nothing is recorded or made live.
const { setTimeout: sleep } = require('node:timers/promises');
const { Undecided } = require('@nativegtm/server/commandLine');

/** @typedef {import('@nativegtm/store/releaseFiles').Check} Check */
/** @typedef {import('@nativegtm/store/records').GateResult} GateResult */
/**
 * What one check came to: its verdict (a Check, passed or failed), or none, and why.
 * @typedef {Check | { name: string, undecided: string }} Outcome
 */

/**
 * How long the gate waits before it tries a check again: past the site's memory of a fragment that failed (half a
 * second) and the next round of its documents composed ahead (a tenth), so that the second try gets a fresh one.
 */
const RETRY_AFTER_MS = 1000;

/** @param {string} why */
const couldNotJudge = (why) => new Undecided(`the gate could not judge: ${why}`);

/**
 * The check's outcome from its first try, or from a second one when the first could not judge.
 * @param {() => Promise<Outcome>} tryOnce
 * @returns {Promise<Outcome>}
 */
async function judgedInTwoTries(tryOnce) {
  const first = await tryOnce();
  if (!('undecided' in first)) return first;
  await sleep(RETRY_AFTER_MS);
  const second = await tryOnce();
  return 'undecided' in second ? { ...second, undecided: `${second.undecided} (twice)` } : second;
}

/**
 * The gate's result, or its "could not judge" naming each check that could not.
 * @param {string} at ISO time the gate started
 * @param {Outcome[]} outcomes
 * @returns {GateResult}
 */
function verdictOf(at, outcomes) {
  /** @type {Check[]} */
  const judged = outcomes.flatMap((outcome) => ('undecided' in outcome ? [] : [outcome]));
  if (judged.some((check) => !check.ok)) return { at, passed: false, checks: judged };
  const undecided = outcomes.flatMap((outcome) => ('undecided' in outcome ? [outcome] : []));
  if (undecided.length > 0)
    throw couldNotJudge(undecided.map(({ name, undecided: why }) => `${name}: ${why}`).join('; '));
  return { at, passed: true, checks: judged };
}

module.exports = { couldNotJudge, judgedInTwoTries, verdictOf };
