// A logger whose lines a test can read back, parsed: the same pino setup as production, written to memory.
const { createLogger } = require('./logger');

/**
 * @param {string} [level]
 * @returns {{ logger: import('./logger').Logger, lines: Record<string, unknown>[] }}
 */
function captureLogs(level = 'info') {
  /** @type {Record<string, unknown>[]} */
  const lines = [];
  const logger = createLogger({ level, destination: { write: (line) => void lines.push(JSON.parse(line)) } });
  return { logger, lines };
}

module.exports = { captureLogs };
