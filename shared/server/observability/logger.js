// Structured logs: one JSON object per line (pino), so a log shipper reads fields instead of parsing prose. The level
// comes from the caller (the start command reads LOG_LEVEL); a server started by code logs nothing unless given a
// logger, which keeps test output to the tests.
const pino = require('pino');

/** @typedef {import('pino').Logger} Logger */

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * Lines are written to stdout in batches, not one write per line: under load a server logs a line per request, and a
 * write per line to a pipe (a terminal, a log shipper) cost the built-in server a sixth of its documents/s
 * (docs/performance.md). A line waits at most FLUSH_MS, or until BATCH_BYTES are buffered. What is buffered is written
 * out when the process exits, even on an uncaught error (see stdout()); only a process killed outright (SIGKILL, out of
 * memory) loses its last FLUSH_MS of lines.
 */
const BATCH_BYTES = 4096;
const FLUSH_MS = 100;

/** @type {ReturnType<typeof pino.destination> | undefined} */
let stdoutBatches;
/**
 * The process's one destination on stdout: shared by its loggers, so that their lines keep their order. Written with
 * synchronous writes: an asynchronous write under way when the process exits lands after what exit writes out.
 */
function stdout() {
  if (!stdoutBatches) {
    const stream = pino.destination({ dest: 1, sync: true, minLength: BATCH_BYTES, periodicFlush: FLUSH_MS });
    // pino writes out an asynchronous destination's buffer at exit, not a synchronous one's.
    process.on('exit', () => stream.flushSync());
    stdoutBatches = stream;
  }
  return stdoutBatches;
}

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
  return pino(options, destination ?? stdout());
}

/** A logger that writes nothing: the default of servers started from code. */
const silentLogger = () => pino({ level: 'silent' });

module.exports = { createLogger, silentLogger, LEVELS };
