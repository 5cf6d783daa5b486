// A span of time as the commands take it: a whole number of seconds, minutes, hours or days ("20s", "30m", "1h",
// "7d"). Seconds are for a canary's steps in tests and rehearsals; a window of field data is minutes or more.
// Written here rather than with `ms`, the usual library: it also reads "100" as 100 ms, "1.5h" and "2 years", none
// of which is a window anyone means, and the field-data store keeps a week anyway.

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION = /^([1-9]\d{0,5})([smhd])$/;

/**
 * The duration in milliseconds, or undefined when `text` is not one.
 * @param {string} text
 */
function parseDuration(text) {
  const match = DURATION.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * UNIT_MS[/** @type {keyof typeof UNIT_MS} */ (match[2])];
}

module.exports = { parseDuration };
