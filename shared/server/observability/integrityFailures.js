// The files visitors' browsers refused for their integrity, per remote and release, as this node's metrics counted
// them (nativegtm_integrity_failures_total, metrics.js): read back from the metrics' text, the one place a cluster's
// primary has every worker's counts summed (prom-client's AggregatorRegistry gives nothing else), for the status page.
// prom-client writes that text and parses none; this reads one metric's lines of it, and nothing else.
const { INTEGRITY_FAILURES_METRIC } = require('./metrics');

/** @typedef {Map<string, Map<string, number>>} IntegrityFailures by remote, then by release: how many files */

/** One label of a sample, as the text format writes it: `name="value"`, with \\, \" and \n escaped. */
const LABEL = /(\w+)="((?:[^"\\]|\\.)*)"/g;
const UNESCAPES = /** @type {Record<string, string>} */ ({ n: '\n', '"': '"', '\\': '\\' });

/**
 * @param {string} text the metrics as the metrics server serves them
 * @returns {IntegrityFailures}
 */
function integrityFailuresIn(text) {
  /** @type {IntegrityFailures} */
  const failures = new Map();
  const prefix = `${INTEGRITY_FAILURES_METRIC}{`;
  for (const line of text.split('\n')) {
    if (!line.startsWith(prefix)) continue;
    const end = line.lastIndexOf('} ');
    const count = Number(line.slice(end + 2));
    if (end === -1 || !Number.isFinite(count) || count <= 0) continue;
    const labels = Object.fromEntries(
      [...line.slice(prefix.length, end).matchAll(LABEL)].map(([, name, value]) => [
        name,
        String(value).replace(/\\(.)/g, (whole, char) => UNESCAPES[char] ?? whole),
      ]),
    );
    if (labels.remote === undefined || labels.release === undefined) continue;
    const releases = failures.get(labels.remote) ?? new Map();
    releases.set(labels.release, (releases.get(labels.release) ?? 0) + count);
    failures.set(labels.remote, releases);
  }
  return failures;
}

module.exports = { integrityFailuresIn };
