// A canary's options as the command takes them (`--steps 5,25,50,100 --step-time 10m …`), read into its steps and
// settings. The command reads its own command line with this; the deploy API reads the same option texts a client
// sends it, so both refuse the same input with the same line.
const { UsageError, numberOption, wholeNumberOption } = require('@nativegtm/server/commandLine');
const { DEFAULT_STEPS } = require('@nativegtm/store/canaryChanges');
const { LEASE_TTL_MS, leaseTtlProblem } = require('@nativegtm/store/canaryLease');
const { parseDuration } = require('../duration');
const { DEFAULT_THRESHOLDS } = require('./verdict');

/** The options that shape a canary (each takes a text), as a command line and the API's requests name them. */
const CANARY_OPTIONS = /** @type {const} */ ([
  'steps',
  'step-time',
  'min-views',
  'max-wait',
  'min-networks',
  'network-share',
  'error-margin',
  'p75-margin',
  'alpha',
  'lease',
]);

/** @typedef {Partial<Record<typeof CANARY_OPTIONS[number], string>>} CanaryOptionTexts */

const DEFAULT_STEP_TIME = '10m';
/** The longest an option's text may be (the API takes them from anyone with a token). */
const MAX_OPTION_CHARS = 64;

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

/**
 * A span as the canary's lines say it: `45s`, `12m 05s`.
 * @param {number} ms
 */
function durationText(ms) {
  const seconds = Math.max(0, Math.round(ms / 1000));
  return seconds >= 60 ? `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, '0')}s` : `${seconds}s`;
}

/**
 * The canary's settings from its options: what is not given is left to the defaults.
 * @param {CanaryOptionTexts} options
 * @returns {import('@nativegtm/store/canaryInStore').CanaryState['settings']}
 */
function settingsFrom(options) {
  const stepTimeMs = durationOption(options['step-time'], '--step-time', DEFAULT_STEP_TIME);
  const p75Margin = numberOption(options['p75-margin'], '--p75-margin', { min: 0, max: 1000 });
  const networkShare = numberOption(options['network-share'], '--network-share', { min: 1, max: 100 });
  const margins = {
    minNetworks: wholeNumberOption(options['min-networks'], '--min-networks', { min: 1 }),
    networkShare: networkShare === undefined ? undefined : networkShare / 100,
    errorMargin: numberOption(options['error-margin'], '--error-margin', { min: 0, max: 1000 }),
    p75Margin: p75Margin === undefined ? undefined : p75Margin / 100,
    alpha: numberOption(options.alpha, '--alpha', { min: 0.0001, max: 0.5 }),
  };
  return {
    stepTimeMs,
    minViews: wholeNumberOption(options['min-views'], '--min-views', { min: 1 }) ?? DEFAULT_THRESHOLDS.minViews,
    maxWaitMs: options['max-wait'] === undefined ? stepTimeMs : durationOption(options['max-wait'], '--max-wait', ''),
    ...Object.fromEntries(Object.entries(margins).filter(([, value]) => value !== undefined)),
  };
}

/**
 * What a canary starts with, from its options' texts: its steps, settings and lease.
 * @param {CanaryOptionTexts} options
 */
function canaryPlan(options) {
  return {
    steps: parseSteps(options.steps),
    settings: settingsFrom(options),
    leaseTtlMs: leaseOption(options.lease),
  };
}

/**
 * --lease, within the bounds the store holds every canary to (@nativegtm/store/canaryLease): refused here as any bad
 * option is (the deploy API's 400), before the store would refuse it.
 * @param {string | undefined} text
 */
function leaseOption(text) {
  const ms = durationOption(text, '--lease', `${LEASE_TTL_MS / 1000}s`);
  const problem = leaseTtlProblem(ms);
  if (problem) throw new UsageError(`--lease: ${problem}`);
  return ms;
}

/**
 * The option texts of a request's body (untrusted): an object of known options, each a short string; a UsageError
 * naming the first that is not.
 * @param {unknown} value
 * @returns {CanaryOptionTexts}
 */
function canaryOptionTexts(value) {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError("a canary's options must be an object of option texts");
  }
  /** @type {Record<string, string>} */
  const texts = {};
  for (const [name, text] of Object.entries(value)) {
    if (!(/** @type {readonly string[]} */ (CANARY_OPTIONS).includes(name))) {
      throw new UsageError(`a canary takes no option "${name.slice(0, MAX_OPTION_CHARS)}"`);
    }
    if (typeof text !== 'string' || text.length > MAX_OPTION_CHARS) {
      throw new UsageError(`--${name} must be a text of at most ${MAX_OPTION_CHARS} characters`);
    }
    texts[name] = text;
  }
  return texts;
}

module.exports = { CANARY_OPTIONS, canaryPlan, canaryOptionTexts, durationText };
