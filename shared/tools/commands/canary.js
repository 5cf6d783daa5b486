// `npm run canary -- <remote> <id> [--steps 5,25,50,100] [--step-time 10m] [--min-views 200] [--max-wait <time>]
// [--min-networks 20] [--network-share 10] [--error-margin 5] [--p75-margin 10] [--alpha 0.01] [--lease 15s]`:
// the gate, then a growing share of visitors on the release, each step judged on their field data against a control
// group of the same share, until the release is live (exit 0) or rolled back (exit 1, naming the signal).
// `--status`, `--abort` and `--resume` look at, end, or carry on the remote's running canary. With `--to <url>` the
// deploy API drives the canary and the command follows it, printing the same lines (`--detach`: it leaves once the
// canary has started).
const { remoteNames } = require('@nativegtm/contract/remotes');
const { UsageError } = require('@nativegtm/server/commandLine');
const { fieldDataDir } = require('@nativegtm/server/fieldData/recordStore');
const { openFieldRecords } = require('@nativegtm/server/fieldData/fieldRecords');
const { LEASE_TTL_MS } = require('@nativegtm/store/canaryLease');
const { parseReleaseCommandLine, runReleaseCommand, TO_OPTION } = require('../releases/commandLine');
const { announced, gateFor } = require('../releases/gate/gateFor');
const { driveCanary } = require('../canary/driveCanary');
const { CANARY_OPTIONS, canaryPlan } = require('../canary/options');
const { abortedLine, endedLine, startedLine } = require('../canary/lines');
const { canaryStatusLines } = require('../canary/status');
const { DEFAULT_THRESHOLDS } = require('../canary/verdict');

/** @typedef {import('@nativegtm/server/fieldData/fieldRecords').FieldRecordSource} FieldRecordSource */

const USAGE =
  'npm run canary -- <remote> <release id> [--steps 5,25,50,100] [--step-time 10m] [--min-views 200] ' +
  '[--max-wait <time>] [--min-networks 20] [--network-share 10] [--error-margin 5] [--p75-margin 10] [--alpha 0.01] ' +
  '[--lease 15s] [--skip-gate] [--to <deploy API URL> [--detach]] | ' +
  'npm run canary -- <remote> --status | --abort | --resume [--to <deploy API URL>]';
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
  --to      the deploy API's URL: it gates and drives the canary, and this command follows it
  --detach  with --to: leave once the canary has started; --status tells how it goes
The remotes: ${remoteNames.join(', ')}.`;

runReleaseCommand(USAGE, async () => {
  const { remote, args, options, store, storeDir, config } = parseReleaseCommandLine(process.argv.slice(2), {
    usage: USAGE,
    description: DESCRIPTION,
    min: 1,
    max: 2,
    options: {
      ...Object.fromEntries(CANARY_OPTIONS.map((name) => [name, { type: /** @type {const} */ ('string') }])),
      'skip-gate': { type: 'boolean' },
      status: { type: 'boolean' },
      abort: { type: 'boolean' },
      resume: { type: 'boolean' },
      detach: { type: 'boolean' },
      ...TO_OPTION,
    },
  });
  const control = /** @type {const} */ (['status', 'abort', 'resume']).filter((name) => options[name]);
  if (control.length > 1) throw new UsageError(`--${control.join(' and --')} cannot go together`);
  const [id] = args;
  if (control.length === 1 && id !== undefined) throw new UsageError(`--${control[0]} takes no release id`);
  if (control.length === 0 && id === undefined) throw new UsageError('missing the release id');
  if (options.detach && (options.to === undefined || options.status || options.abort)) {
    throw new UsageError('--detach goes with --to, starting or resuming a canary the deploy API drives');
  }
  const given = /** @type {Record<string, unknown>} */ (options);
  const texts = Object.fromEntries(
    CANARY_OPTIONS.flatMap((name) => (typeof given[name] === 'string' ? [[name, given[name]]] : [])),
  );
  // Checked here too when the API is to read them: a wrong option is a usage error before anything is sent.
  const plan = canaryPlan(texts);
  const skip = options['skip-gate'] === true;
  const gating = `Gating release ${id} of ${remote} (composed with the live site, in headless Chromium)…`;
  const print = (/** @type {string} */ line) => console.log(line);

  if (options.to !== undefined) {
    const { followCanary } = require('../releases/deployCanary');
    const api = followCanary(remote, options.to);
    if (options.status) return (await api.status()).forEach(print);
    if (options.abort) return print(abortedLine(remote, await api.abort()));
    if (!options.resume && !skip) console.error(gating);
    const state = options.resume ? await api.resume() : await api.start(/** @type {string} */ (id), { texts, skip });
    print(startedLine(remote, state, options.resume === true));
    if (options.detach) {
      return print(
        `${remote}: the deploy API drives it; npm run canary -- ${remote} --status --to ${options.to} says how it goes.`,
      );
    }
    return print(endedLine(remote, await api.follow(state, print)));
  }

  if (options.status)
    return withFieldRecords(config, async (records) => (await canaryStatusLines(store, records)).forEach(print));
  if (options.abort) return print(abortedLine(remote, await store.abortCanary({ now: Date.now })));

  const state = options.resume
    ? await store.takeOverCanary()
    : await store.startCanary(/** @type {string} */ (id), {
        ...plan,
        gate: announced(gateFor({ skip, storeDir, remote, chromiumPath: config.CHROME_PATH }), gating),
        now: Date.now,
      });
  print(startedLine(remote, state, options.resume === true));
  const ended = await withFieldRecords(config, (fieldRecords) => driveCanary({ store, fieldRecords, state, print }));
  print(endedLine(remote, ended));
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
