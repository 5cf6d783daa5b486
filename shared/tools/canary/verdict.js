// A canary step's verdict: the canary's visitors against a control group of the same share on the live release,
// measured over the same window. A step passes when each side has enough views from enough networks and no signal is
// worse on the canary by more than its threshold; it fails on the first signal that is, naming it; with too few views
// or networks there is no verdict. Networks: one network (a /24 or /56) keeps at most a share of each of a side's
// counts (sides.js), so a few requests from one place cannot decide; and behind a CDN whose addresses the servers are
// not told to see through (TRUSTED_PROXIES), every view comes from the CDN's few networks: no verdict, saying so. None either when the store dropped
// records for its byte budget in the window (whatever the records left say: what was dropped could have been either
// side's).
//
// A signal fails only when the difference is both large enough to matter (its threshold: a p75 that many ms or that
// share above the control's, an error rate that many per 1,000 views above it) and unlikely to be chance (its
// one-sided test below ALPHA: statistics.js). The first alone would roll back on noise when a step has few views; the
// second alone would roll back on a real but negligible difference when it has many. With four signals each tested
// at 1 %, a release as good as live is rolled back by chance in at most about 4 % of steps.
const { VITALS } = require('@nativegtm/contract/fieldData');
const { nearestRank } = require('@nativegtm/server/fieldData/summary');
const { countExcessPValue, shiftPValue } = require('./statistics');

/** @typedef {'LCP' | 'INP' | 'CLS'} JudgedVital */

/**
 * What one side measured over the step's window.
 * @typedef {object} Side
 * @property {number} views
 * @property {number} networks how many networks the views came from (before each network's cap)
 * @property {number} errors remote failures and uncaught errors attributed to the remote
 * @property {number} [documents] documents of the remote's page the server composed for this side (the built-in
 *   server counts them; nginx does not)
 * @property {number} [failedFragments] those of them without the remote's fragment (rendered in the browser)
 * @property {Partial<Record<JudgedVital, number[]>>} values each vital's values, one per view that measured it
 */

/**
 * @typedef {object} Thresholds
 * @property {number} minViews views each side needs for a verdict
 * @property {number} minNetworks networks each side's views must come from for a verdict
 * @property {number} maxNetworkShare the most one network keeps of each of a side's counts (views, each vital's
 *   values, errors, documents), 0 to 1
 * @property {number} alpha each test's significance level
 * @property {number} errorsPerThousand how many more errors per 1,000 views the canary may have
 * @property {number} fragmentsPerThousand how many more failed fragments per 1,000 documents the canary may have
 * @property {Record<JudgedVital, { share: number, at: number }>} p75 how much higher the canary's p75 may be: by
 *   `share` of the control's and by `at` (ms, or CLS's score), both
 */

/** @type {Thresholds} */
const DEFAULT_THRESHOLDS = {
  minViews: 200,
  minNetworks: 20,
  maxNetworkShare: 0.1,
  alpha: 0.01,
  errorsPerThousand: 5,
  fragmentsPerThousand: 10,
  p75: {
    LCP: { share: 0.1, at: 250 },
    INP: { share: 0.1, at: 50 },
    CLS: { share: 0.1, at: 0.05 },
  },
};

/**
 * The thresholds a canary's settings ask for: the defaults, but for what the command's options changed.
 * @param {import('@nativegtm/store/canaryInStore').CanaryState['settings']} settings
 * @returns {Thresholds}
 */
function thresholdsOf({ minViews, minNetworks, networkShare, errorMargin, p75Margin, alpha }) {
  /** @param {{ share: number, at: number }} limit */
  const margin = (limit) => ({ ...limit, share: p75Margin ?? limit.share });
  const { p75 } = DEFAULT_THRESHOLDS;
  return {
    minViews,
    minNetworks: minNetworks ?? DEFAULT_THRESHOLDS.minNetworks,
    maxNetworkShare: networkShare ?? DEFAULT_THRESHOLDS.maxNetworkShare,
    alpha: alpha ?? DEFAULT_THRESHOLDS.alpha,
    errorsPerThousand: errorMargin ?? DEFAULT_THRESHOLDS.errorsPerThousand,
    fragmentsPerThousand: DEFAULT_THRESHOLDS.fragmentsPerThousand,
    p75: { LCP: margin(p75.LCP), INP: margin(p75.INP), CLS: margin(p75.CLS) },
  };
}

/** The vitals judged, in the order a verdict names them. */
const JUDGED_VITALS = /** @type {const} */ (['INP', 'LCP', 'CLS']);

/**
 * One signal on both sides.
 * @typedef {object} Signal
 * @property {'errors' | 'fragments' | JudgedVital} name
 * @property {number | undefined} canary errors per 1,000 views, failed fragments per 1,000 documents, or p75
 *   (undefined: no value on that side)
 * @property {number | undefined} control
 * @property {number} pValue the one-sided test's (1 when not tested)
 * @property {boolean} failed
 */

/**
 * @typedef {{ verdict: 'pass' | 'fail' | 'no-verdict', signals: Signal[], reason: string }} StepVerdict
 *   reason: one line, e.g. "errors 48.0 per 1,000 views vs 0.0 on live"
 */

/** @param {number[] | undefined} values */
const p75Of = (values) =>
  values && values.length > 0 ? nearestRank(Float64Array.from(values).sort(), 0.75) : undefined;

/**
 * A signal's value as the verdict's line says it: "48.0" errors (per 1,000 views), "420 ms", "0.180".
 * @param {'errors' | 'fragments' | JudgedVital} name
 * @param {number | undefined} value
 */
function shown(name, value) {
  if (value === undefined) return 'none';
  if (name === 'errors' || name === 'fragments') return value.toFixed(1);
  return VITALS[name].unit === 'ms' ? `${Math.round(value)} ms` : value.toFixed(3);
}

/**
 * A signal on both sides as a step's line says it: "errors 48.0 vs 0.0 per 1,000", "INP 420 ms vs 80 ms".
 * @param {Signal} signal
 */
function signalText({ name, canary, control }) {
  const per = name === 'errors' ? ' per 1,000' : name === 'fragments' ? ' failed per 1,000 documents' : '';
  return `${name} ${shown(name, canary)} vs ${shown(name, control)}${per}`;
}

/** Why a step whose window lost records for the store's budget has no verdict. */
const DROPPED_REASON = 'field data was dropped (budget) during this step';

/**
 * @param {{ canary: Side, control: Side, dropped?: boolean }} sides
 *   dropped: the store refused records for its byte budget during the step
 * @param {Thresholds} [thresholds]
 * @returns {StepVerdict}
 */
function judgeStep({ canary, control, dropped = false }, thresholds = DEFAULT_THRESHOLDS) {
  const perThousand = (/** @type {Side} */ side) => (side.views > 0 ? (side.errors / side.views) * 1000 : 0);
  const errorsCanary = perThousand(canary);
  const errorsControl = perThousand(control);
  const errorsP = countExcessPValue(
    { count: canary.errors, views: canary.views },
    { count: control.errors, views: control.views },
  );
  /** @type {Signal[]} */
  const signals = [
    {
      name: 'errors',
      canary: errorsCanary,
      control: errorsControl,
      pValue: errorsP,
      failed: errorsCanary - errorsControl > thresholds.errorsPerThousand && errorsP < thresholds.alpha,
    },
  ];
  // Failed fragments, where the server counted the documents it composed for both sides (not behind nginx).
  if ((canary.documents ?? 0) > 0 && (control.documents ?? 0) > 0) {
    const ours = { count: canary.failedFragments ?? 0, views: canary.documents ?? 0 };
    const theirs = { count: control.failedFragments ?? 0, views: control.documents ?? 0 };
    const rate = (/** @type {{ count: number, views: number }} */ side) => (side.count / side.views) * 1000;
    const pValue = countExcessPValue(ours, theirs);
    signals.push({
      name: 'fragments',
      canary: rate(ours),
      control: rate(theirs),
      pValue,
      failed: rate(ours) - rate(theirs) > thresholds.fragmentsPerThousand && pValue < thresholds.alpha,
    });
  }
  for (const name of JUDGED_VITALS) {
    const ours = canary.values[name] ?? [];
    const theirs = control.values[name] ?? [];
    const p75Canary = p75Of(ours);
    const p75Control = p75Of(theirs);
    const { share, at } = thresholds.p75[name];
    const worse =
      p75Canary !== undefined &&
      p75Control !== undefined &&
      p75Canary > p75Control * (1 + share) &&
      p75Canary - p75Control > at;
    const pValue = worse ? shiftPValue(ours, theirs) : 1;
    signals.push({ name, canary: p75Canary, control: p75Control, pValue, failed: worse && pValue < thresholds.alpha });
  }
  if (dropped) return { verdict: 'no-verdict', signals, reason: DROPPED_REASON };
  // Before views: behind a CDN not seen through, the cap leaves one network's views nothing to count.
  const fewestNetworks = Math.min(canary.networks, control.networks);
  if (fewestNetworks < thresholds.minNetworks) {
    return {
      verdict: 'no-verdict',
      signals,
      reason:
        `views come from ${fewestNetworks} network${fewestNetworks === 1 ? '' : 's'} ` +
        `(at least ${thresholds.minNetworks} needed): set TRUSTED_PROXIES if behind a proxy or CDN`,
    };
  }
  const fewest = Math.min(canary.views, control.views);
  if (fewest < thresholds.minViews) {
    return {
      verdict: 'no-verdict',
      signals,
      reason: `not enough traffic: ${canary.views} views on the canary, ${control.views} on live (${thresholds.minViews} each needed)`,
    };
  }
  const failed = signals.find((signal) => signal.failed);
  if (failed) {
    const canarySays =
      failed.name === 'errors'
        ? `errors ${shown('errors', failed.canary)} per 1,000 views`
        : failed.name === 'fragments'
          ? `fragments failed on ${shown('fragments', failed.canary)} per 1,000 documents`
          : `${failed.name} p75 ${shown(failed.name, failed.canary)}`;
    return { verdict: 'fail', signals, reason: `${canarySays} vs ${shown(failed.name, failed.control)} on live` };
  }
  return { verdict: 'pass', signals, reason: 'no signal worse than live' };
}

module.exports = { DEFAULT_THRESHOLDS, DROPPED_REASON, JUDGED_VITALS, judgeStep, signalText, thresholdsOf };
