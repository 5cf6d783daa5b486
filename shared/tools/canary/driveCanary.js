// The canary command's loop: wait for the step to end, compare the canary with its control over the step's window
// (sides.js, verdict.js), then advance to the next share, promote at 100, or end the canary. A step without enough
// views waits up to maxWaitMs more, then the canary ends without a verdict; one whose window lost records to the
// field-data store's byte budget ends without a verdict at once (waiting cannot bring them back). The state is re-read
// at every look, so an abort (or a resume elsewhere) stops this loop without it changing anything; each look renews the
// command's lease when a third of it is gone (@nativegtm/store/canaryChanges).
const { canaryKey } = require('@nativegtm/store/canaryInStore');
const { CanaryGone, leaseOf, renewalDue, sameHolder } = require('@nativegtm/store/canaryChanges');
const { sidesInStore } = require('./sides');
const { judgeStep, signalText, thresholdsOf } = require('./verdict');

/** @typedef {import('@nativegtm/store/remoteStore').RemoteStore} RemoteStore */
/** @typedef {import('@nativegtm/store/canaryInStore').CanaryState} CanaryState */
/** @typedef {import('@nativegtm/store/canaryInStore').StepRecord} StepRecord */
/** @typedef {import('@nativegtm/store/canaryChanges').EndedCanary} EndedCanary */
/** @typedef {import('./verdict').StepVerdict} StepVerdict */
/** @typedef {import('./verdict').Side} Side */

/** How often the loop looks at the store and the records: a twentieth of a step, within these bounds. */
const MIN_LOOK_MS = 100;
const MAX_LOOK_MS = 5_000;

/** @param {number} ms */
const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * How often a canary is looked at during a step of `stepTimeMs`: a twentieth of it, within MIN_LOOK_MS..MAX_LOOK_MS.
 * @param {number} stepTimeMs
 */
const lookEvery = (stepTimeMs) => Math.min(MAX_LOOK_MS, Math.max(MIN_LOOK_MS, Math.round(stepTimeMs / 20)));

/**
 * One step's line: its share, the views on each side, each signal on both sides, the verdict.
 * @param {number} share
 * @param {{ canary: Side, control: Side }} sides
 * @param {StepVerdict} verdict
 */
function stepLine(share, { canary, control }, verdict) {
  const signals = verdict.signals.map(signalText).join(' · ');
  const views = `${canary.views} views vs ${control.views} on live`;
  return `${String(share).padStart(3)} %  ${views} · ${signals}  → ${verdict.verdict}: ${verdict.reason}`;
}

/**
 * @param {{ store: RemoteStore, fieldRecords: import('@nativegtm/server/fieldData/fieldRecords').FieldRecordSource,
 *   state: CanaryState,
 *   now?: () => number, sleep?: (ms: number) => Promise<unknown>, print?: (line: string) => void }} options
 *   state: the canary as this process last wrote it (started or took over); its settings say the thresholds
 * @returns {Promise<EndedCanary>}
 */
async function driveCanary({ store, fieldRecords, state, now = Date.now, sleep = wait, print = () => {} }) {
  const { remote } = store;
  let mine = state;
  const { stepTimeMs, maxWaitMs } = mine.settings;
  const judging = thresholdsOf(mine.settings);
  // Only this canary's documents count, each network within its share.
  const counting = { canary: canaryKey(mine), maxNetworkShare: judging.maxNetworkShare };
  // Often enough to renew the lease in time, a look or two missed.
  const look = Math.min(leaseOf(mine).ttlMs / 3, lookEvery(stepTimeMs));
  for (;;) {
    const { canary } = await store.canary();
    if (!canary || !sameHolder(canary, mine)) {
      throw new CanaryGone(`the canary of release ${mine.id} was ended or taken over by another command`);
    }
    const since = Date.parse(mine.stepStartedAt);
    const at = now();
    if (at >= renewalDue(mine)) mine = await store.renewLease(mine, at);
    if (at < since + stepTimeMs) {
      await sleep(Math.min(look, since + stepTimeMs - at));
      continue;
    }
    const sides = await sidesInStore(fieldRecords, remote, { since, until: at }, counting);
    const verdict = judgeStep(sides, judging);
    if (verdict.verdict === 'no-verdict' && !sides.dropped && at < since + stepTimeMs + maxWaitMs) {
      await sleep(look);
      continue;
    }
    print(stepLine(mine.share, sides, verdict));
    /** @type {StepRecord} */
    const record = {
      share: mine.share,
      verdict: verdict.verdict,
      reason: verdict.reason,
      at: new Date(at).toISOString(),
      views: { canary: sides.canary.views, control: sides.control.views },
    };
    if (verdict.verdict === 'fail') {
      return store.finishCanary(mine, { outcome: 'rolled back', reason: verdict.reason, last: record, at });
    }
    if (verdict.verdict === 'no-verdict') {
      return store.finishCanary(mine, { outcome: 'no verdict', reason: verdict.reason, last: record, at });
    }
    const next = mine.steps[mine.steps.indexOf(mine.share) + 1] ?? 100;
    if (next >= 100) {
      print(`100 %  promoted`);
      const reason = `every step passed (${[...mine.verdicts, record].map((step) => `${step.share} %`).join(', ')})`;
      return store.finishCanary(mine, { outcome: 'promoted', reason, last: record, at });
    }
    mine = await store.advanceCanary(mine, record, next, at);
  }
}

module.exports = { driveCanary, lookEvery };
