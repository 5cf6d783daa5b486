// `npm run canary -- <remote> --status`: the running canary as its lines say it (share, time left, views and signals
// on each side, its command and lease), or the last one that ended. The command prints them where the store is; the
// deploy API answers them to a command that asks it.
const { controlShare } = require('@nativegtm/contract/canaryBuckets');
const { Refusal } = require('@nativegtm/server/commandLine');
const { canaryKey } = require('@nativegtm/store/canaryInStore');
const { commandAlive, leaseOf } = require('@nativegtm/store/canaryChanges');
const { durationText } = require('./options');
const { sidesInStore } = require('./sides');
const { judgeStep, signalText, thresholdsOf } = require('./verdict');

/**
 * The status's lines; a Refusal when the canary's state cannot be read.
 * @param {Pick<import('@nativegtm/store/remoteStore').RemoteStore, 'remote' | 'canary' | 'endedCanaries'>} store
 * @param {import('@nativegtm/server/fieldData/fieldRecords').FieldRecordSource} records
 * @param {number} [now]
 * @returns {Promise<string[]>}
 */
async function canaryStatusLines(store, records, now = Date.now()) {
  const { remote } = store;
  const { canary, problem } = await store.canary();
  if (problem) throw new Refusal(`${remote}'s canary cannot be read: ${problem}`);
  if (!canary) {
    const last = (await store.endedCanaries()).at(-1);
    return [
      `${remote}: no canary is running.` +
        (last ? ` The last one, of release ${last.id}, ended ${last.endedAt}: ${last.outcome} (${last.reason}).` : ''),
    ];
  }
  const since = Date.parse(canary.stepStartedAt);
  const { stepTimeMs, minViews, maxWaitMs } = canary.settings;
  const thresholds = thresholdsOf(canary.settings);
  const sides = await sidesInStore(
    records,
    remote,
    { since, until: now },
    { canary: canaryKey(canary), maxNetworkShare: thresholds.maxNetworkShare },
  );
  const verdict = judgeStep(sides, thresholds);
  const alive = commandAlive(canary.command);
  const lease = leaseOf(canary);
  const leaseLeft = Date.parse(lease.expiresAt) - now;
  const left = since + stepTimeMs - now;
  // A deploy API's canary is carried on by any deploy API on the store; a command's, by the operator.
  const byApi = canary.api ? 'a deploy API on the store carries it on at its next look' : undefined;
  const step = canary.steps.indexOf(canary.share) + 1;
  return [
    `${remote}: canary of release ${canary.id} at ${canary.share} % (control ${controlShare(canary.share)} % on live), ` +
      `step ${step} of ${canary.steps.length} (${canary.steps.join(', ')})`,
    left > 0
      ? `  step ends in ${durationText(left)}`
      : `  step over ${durationText(-left)} ago, waiting for ${minViews} views a side (up to ${durationText(maxWaitMs + left)} more)`,
    `  views: ${sides.canary.views} on the canary, ${sides.control.views} on live (${minViews} each needed), ` +
      `from ${sides.canary.networks} and ${sides.control.networks} networks (${thresholds.minNetworks} each needed)`,
    ...verdict.signals.map((signal) => `  ${signalText(signal)}${signal.failed ? '  (worse)' : ''}`),
    ...(sides.dropped ? [`  ${verdict.reason}: the step will end without a verdict`] : []),
    ...canary.verdicts.map((passed) => `  ${passed.share} %: ${passed.verdict} (${passed.reason})`),
    alive === false
      ? `  its command (pid ${canary.command.pid}) is NOT running: the share stays at ${canary.share} %; ${byApi ?? `carry on with npm run canary -- ${remote} --resume`}`
      : `  its command: pid ${canary.command.pid} on ${canary.command.host}${alive ? ', running' : ' (another machine or container: cannot tell whether it runs)'}`,
    ...(canary.api ? [`  driven by the deploy API, as ${canary.api.actor.by}`] : []),
    leaseLeft > 0
      ? `  its lease runs ${durationText(leaseLeft)} more`
      : `  its lease ran out ${durationText(-leaseLeft)} ago: ${byApi ?? `npm run canary -- ${remote} --resume takes it over`}`,
  ];
}

module.exports = { canaryStatusLines };
