// Structured logs: one JSON object per line (pino), so a log shipper reads fields instead of parsing prose. The level
// comes from the caller (the start command reads LOG_LEVEL); a server started by code logs nothing unless given a
// logger, which keeps test output to the tests.
const pino = require('pino');

/** @typedef {import('pino').Logger} Logger */

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * @param {{ level?: string, destination?: import('pino').DestinationStream }} [options]
 *   level: one of pino's levels ("info" unless given); destination: where lines go (stdout unless given)
 * @returns {Logger}
 */
function createLogger({ level = 'info', destination } = {}) {
  if (!LEVELS.includes(level)) {
    throw new Error(`LOG_LEVEL must be one of ${LEVELS.join(', ')}, not ${JSON.stringify(level)}`);
  }
  const options = { level, timestamp: pino.stdTimeFunctions.isoTime, base: { pid: process.pid } };
  return destination ? pino(options, destination) : pino(options);
}

/** A logger that writes nothing: the default of servers started from code. */
const silentLogger = () => pino({ level: 'silent' });

module.exports = { createLogger, silentLogger, LEVELS };
