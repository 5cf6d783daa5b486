// The failed tests a turbo run's log names, to repeat under it: with --output-logs=errors-only a failing task prints
// its whole jest log, and the one line that says which test failed is lost in pages of diffs and stack traces.

/** Lines jest writes for a failed test (`✕ name`) and for each failure's heading (`● describe › name`). */
const FAILURE_LINE = /^(?<task>\S+:\S+): +(?<what>(?:✕|●) .*)$/u;
/** At most this many lines: past it, the log above says the rest. */
const MAX_LINES = 20;

/**
 * The `task: ✕ test` and `task: ● heading` lines of a turbo log, once each, in order (jest prints each heading twice:
 * at the failure and in its summary).
 * @param {string} log
 * @returns {string[]}
 */
function failedTests(log) {
  /** @type {Set<string>} */
  const lines = new Set();
  for (const line of log.split(/\r?\n/)) {
    // eslint-disable-next-line no-control-regex -- the colours turbo and jest write
    const { task, what } = FAILURE_LINE.exec(line.replace(/\u001b\[[0-9;]*m/g, '').trimEnd())?.groups ?? {};
    if (task && what && what !== '● Console') lines.add(`${task}: ${what}`);
  }
  const all = [...lines];
  return all.length > MAX_LINES ? [...all.slice(0, MAX_LINES), `… and ${all.length - MAX_LINES} more`] : all;
}

module.exports = { failedTests };
