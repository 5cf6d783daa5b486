// `npm run canary -- <remote> <id> [--steps 5,25,50,100] [--step-time 10m] [--min-views 200] [--max-wait <time>]
// [--min-networks 20] [--network-share 10] [--error-margin 5] [--p75-margin 10] [--alpha 0.01] [--lease 15s]`:
// the gate, then a growing share of visitors on the release, each step judged on their field data against a control
// group of the same share, until the release is live (exit 0) or rolled back (exit 1, naming the signal).
// `--status`, `--abort` and `--resume` look at, end, or carry on the remote's running canary.
const { remoteNames } = require('@nativegtm/contract/remotes');
const { controlShare } = require('@nativegtm/contract/canaryBuckets');
const { UsageError, Refusal, numberOption, wholeNumberOption } = require('@nativegtm/server/commandLine');
const { fieldDataDir } = require('@nativegtm/server/fieldData/recordStore');
const { openFieldRecords } = require('@nativegtm/server/fieldData/fieldRecords');
const { canaryKey } = require('@nativegtm/store/canaryInStore');
const { parseReleaseCommandLine, runReleaseCommand } = require('../releases/commandLine');
const { parseDuration } = require('../duration');
const { announced, gateFor } = require('../releases/gate/gateFor');
const { DEFAULT_STEPS, LEASE_TTL_MS, commandAlive, leaseOf } = require('@nativegtm/store/canaryChanges');
const { driveCanary } = require('../canary/driveCanary');
const { sidesInStore } = require('../canary/sides');
const { DEFAULT_THRESHOLDS, judgeStep, signalText, thresholdsOf } = require('../canary/verdict');

/** @typedef {import('@nativegtm/server/fieldData/fieldRecords').FieldRecordSource} FieldRecordSource */

const USAGE =
  'npm run canary -- <remote> <release id> [--steps 5,25,50,100] [--step-time 10m] [--min-views 200] ' +
  '[--max-wait <time>] [--min-networks 20] [--network-share 10] [--error-margin 5] [--p75-margin 10] [--alpha 0.01] ' +
  '[--lease 15s] [--skip-gate] | ' +
  'npm run canary -- <remote> --status | --abort | --resume';
const DESCRIPTION = `Gates the release, then gives it to a growing share of visitors (--steps, percent; the last is
100, the promote). At the end of each step (--step-time: 20s, 10m, 1h) the canary is compared with a control group of
the same share on live, over the step's field data; a worse signal rolls it back, and a step without --min-views views
on each side waits up to --max-wait more (one more step time unless given), then ends without a verdict.
Views count by network (a visitor's /24 or /56): one network keeps at most --network-share percent of each of a
side's counts (${DEFAULT_THRESHOLDS.maxNetworkShare * 100}), and a side needs views from --min-networks networks (${DEFAULT_THRESHOLDS.minNetworks}) for a verdict.
A signal fails when the canary is worse than the control by more than its margin, and its one-sided test says so
below --alpha: --error-margin more errors per 1,000 views (${DEFAULT_THRESHOLDS.errorsPerThousand}), a p75 of INP, LCP or CLS higher by
--p75-margin percent (${DEFAULT_THRESHOLDS.p75.INP.share * 100}) and by at least 50 ms, 250 ms or 0.05.
The command holds the canary's lease (--lease, ${LEASE_TTL_MS / 1000}s), renewed as it runs: no other command changes the canary until it
runs out, and once another has taken it over this one changes nothing more and stops.
  --status  the running canary: share, views and signals on each side, time left, whether its command is alive
  --abort   everyone on live now
  --resume  carry on a canary whose command died (its process gone, or its lease run out)
The remotes: ${remoteNames.join(', ')}.`;

const DEFAULT_STEP_TIME = '10m';

/**
 * The steps from `--steps`: whole percents, increasing, ending at 100, with at least one before it.
 * @param {string | undefined} text
 */
function parseSteps(text) {
  if (text === undefined) return DEFAULT_STEPS;
  const steps = text.split(',').map((part) => Number(part));
  const valid =
    /^\d{1,3}(,\d{1,3})*$/.test(text) &&
    steps.every(
      (step, index) => step >= 1 && step <= 100 && (index === 0 || step > /** @type {number} */ (steps[index - 1])),
    ) &&
    steps[steps.length - 1] === 100 &&
    steps.length >= 2;
  if (!valid) {
    throw new UsageError(
      `--steps must be increasing percents ending at 100, at least two, like 5,25,50,100, not "${text}"`,
    );
  }
  return steps;
}

/**
 * @param {string | undefined} text
 * @param {string} option
 * @param {string} fallback
 */
function durationOption(text, option, fallback) {
  const ms = parseDuration(text ?? fallback);
  if (ms === undefined) throw new UsageError(`${option} must be a time like 20s, 10m or 1h, not "${text}"`);
  return ms;
}

/** @param {number} ms */
function durationText(ms) {
  const seconds = Math.max(0, Math.round(ms / 1000));
  return seconds >= 60 ? `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, '0')}s` : `${seconds}s`;
}

/**
 * The canary's settings from its options: what is not given is left to the defaults.
 * @param {Record<string, string | boolean | undefined>} options
 * @returns {import('@nativegtm/store/canaryInStore').CanaryState['settings']}
 */
function settingsFrom(options) {
  /** @param {string} name */
  const text = (name) => /** @type {string | undefined} */ (options[name]);
  const stepTimeMs = durationOption(text('step-time'), '--step-time', DEFAULT_STEP_TIME);
  const p75Margin = numberOption(text('p75-margin'), '--p75-margin', { min: 0, max: 1000 });
  const networkShare = numberOption(text('network-share'), '--network-share', { min: 1, max: 100 });
  const margins = {
    minNetworks: wholeNumberOption(text('min-networks'), '--min-networks', { min: 1 }),
    networkShare: networkShare === undefined ? undefined : networkShare / 100,
    errorMargin: numberOption(text('error-margin'), '--error-margin', { min: 0, max: 1000 }),
    p75Margin: p75Margin === undefined ? undefined : p75Margin / 100,
    alpha: numberOption(text('alpha'), '--alpha', { min: 0.0001, max: 0.5 }),
  };
  return {
    stepTimeMs,
    minViews: wholeNumberOption(text('min-views'), '--min-views', { min: 1 }) ?? DEFAULT_THRESHOLDS.minViews,
    maxWaitMs: text('max-wait') === undefined ? stepTimeMs : durationOption(text('max-wait'), '--max-wait', ''),
    ...Object.fromEntries(Object.entries(margins).filter(([, value]) => value !== undefined)),
  };
}

runReleaseCommand(USAGE, async () => {
  const { remote, args, options, store, storeDir, config } = parseReleaseCommandLine(process.argv.slice(2), {
    usage: USAGE,
    description: DESCRIPTION,
    min: 1,
    max: 2,
    options: {
      steps: { type: 'string' },
      'step-time': { type: 'string' },
      'min-views': { type: 'string' },
      'max-wait': { type: 'string' },
      'min-networks': { type: 'string' },
      'network-share': { type: 'string' },
      'error-margin': { type: 'string' },
      'p75-margin': { type: 'string' },
      alpha: { type: 'string' },
      lease: { type: 'string' },
      'skip-gate': { type: 'boolean' },
      status: { type: 'boolean' },
      abort: { type: 'boolean' },
      resume: { type: 'boolean' },
    },
  });
  const control = /** @type {const} */ (['status', 'abort', 'resume']).filter((name) => options[name]);
  if (control.length > 1) throw new UsageError(`--${control.join(' and --')} cannot go together`);
  const [id] = args;
  if (control.length === 1 && id !== undefined) throw new UsageError(`--${control[0]} takes no release id`);
  if (control.length === 0 && id === undefined) throw new UsageError('missing the release id');
  const print = (/** @type {string} */ line) => console.log(line);

  if (options.status) return withFieldRecords(config, (records) => printStatus(store, records));
  if (options.abort) {
    const ended = await store.abortCanary({ now: Date.now });
    console.log(
      'id' in ended
        ? `${remote}: canary of release ${ended.id} aborted; everyone is on live.`
        : `${remote}: a canary state that could not be read (${ended.problem}) removed; everyone is on live.`,
    );
    return;
  }

  const state = options.resume
    ? await store.takeOverCanary()
    : await store.startCanary(/** @type {string} */ (id), {
        steps: parseSteps(options.steps),
        settings: settingsFrom(options),
        gate: announced(
          gateFor({ skip: options['skip-gate'] === true, storeDir, remote, chromiumPath: config.CHROME_PATH }),
          `Gating release ${id} of ${remote} (composed with the live site, in headless Chromium)…`,
        ),
        now: Date.now,
        leaseTtlMs: durationOption(
          /** @type {string | undefined} */ (options.lease),
          '--lease',
          `${LEASE_TTL_MS / 1000}s`,
        ),
      });
  const { stepTimeMs } = state.settings;
  console.log(
    `${remote}: canary of release ${state.id} ${options.resume ? 'resumed' : 'started'} at ${state.share} % ` +
      `(steps ${state.steps.join(', ')}; ${durationText(stepTimeMs)} each; a control group of the same share on live)`,
  );
  const ended = await withFieldRecords(config, (fieldRecords) => driveCanary({ store, fieldRecords, state, print }));
  if (ended.outcome === 'promoted') {
    console.log(`${remote}: release ${ended.id} is live (${ended.reason}; npm run rollback -- ${remote} undoes it).`);
    return;
  }
  const at = ended.verdicts[ended.verdicts.length - 1]?.share;
  throw new Refusal(
    ended.outcome === 'rolled back'
      ? `rolled back at ${at} %, everyone is on live: ${ended.reason}`
      : `ended without a verdict at ${at} %, everyone is on live: ${ended.reason}`,
  );
});

/**
 * Runs `work` on the field data the configuration names (every node's, on a database), closed after.
 * @template T
 * @param {{ FIELD_DATA_DIR?: string, DATABASE_URL?: string }} config
 * @param {(records: FieldRecordSource) => Promise<T>} work
 */
async function withFieldRecords(config, work) {
  const records = openFieldRecords({ dir: fieldDataDir(config.FIELD_DATA_DIR), databaseUrl: config.DATABASE_URL });
  try {
    return await work(records);
  } finally {
    await records.close();
  }
}

/**
 * --status: the running canary (or the last one that ended).
 * @param {import('@nativegtm/store/remoteStore').RemoteStore} store
 * @param {FieldRecordSource} records
 */
async function printStatus(store, records) {
  const { remote } = store;
  const { canary, problem } = await store.canary();
  if (problem) throw new Refusal(`${remote}'s canary cannot be read: ${problem}`);
  if (!canary) {
    const last = (await store.endedCanaries()).at(-1);
    console.log(
      `${remote}: no canary is running.` +
        (last ? ` The last one, of release ${last.id}, ended ${last.endedAt}: ${last.outcome} (${last.reason}).` : ''),
    );
    return;
  }
  const now = Date.now();
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
  const step = canary.steps.indexOf(canary.share) + 1;
  console.log(
    [
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
        ? `  its command (pid ${canary.command.pid}) is NOT running: the share stays at ${canary.share} %; carry on with npm run canary -- ${remote} --resume`
        : `  its command: pid ${canary.command.pid} on ${canary.command.host}${alive ? ', running' : ' (another machine: cannot tell whether it runs)'}`,
      leaseLeft > 0
        ? `  its lease runs ${durationText(leaseLeft)} more`
        : `  its lease ran out ${durationText(-leaseLeft)} ago: npm run canary -- ${remote} --resume takes it over`,
    ].join('\n'),
  );
}
