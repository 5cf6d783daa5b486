const { spawn } = require('node:child_process');
const { createLogger } = require('./logger');

/**
 * Runs `script` in a Node process with this package's logger as `logger`, and resolves with the lines it wrote to
 * stdout by the time it exited, or by `readForMs` (then it is stopped).
 * @param {string} script
 * @param {number} [readForMs]
 * @returns {Promise<{ lines: Array<Record<string, unknown>>, firstLineMs: number | undefined }>}
 */
function linesOf(script, readForMs = 10_000) {
  const child = spawn(
    process.execPath,
    ['-e', `const logger = require(${JSON.stringify(require.resolve('./logger'))}).createLogger();\n${script}`],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const started = performance.now();
  /** @type {number | undefined} */
  let firstLineMs;
  let text = '';
  child.stdout.on('data', (chunk) => {
    firstLineMs ??= performance.now() - started;
    text += chunk;
  });
  const timer = setTimeout(() => child.kill(), readForMs);
  return new Promise((resolve) => {
    child.on('close', () => {
      clearTimeout(timer);
      resolve({
        lines: text
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line)),
        firstLineMs,
      });
    });
  });
}

describe('the logger', () => {
  it('refuses a level it does not know, naming the ones it does', () => {
    expect(() => createLogger({ level: 'verbose' })).toThrow('LOG_LEVEL must be one of fatal, error');
  });

  it('writes a line of a quiet process within its flush interval, without waiting for a batch to fill', async () => {
    const { lines } = await linesOf(
      "logger.info('one'); setTimeout(() => process.kill(process.pid, 'SIGKILL'), 1500);",
    );
    expect(lines.map((line) => line.msg)).toEqual(['one']);
  }, 30_000);

  it.each([
    ['exits', "for (let i = 0; i < 100; i++) logger.info({ i }, 'line'); process.exit(0);"],
    ['throws', "for (let i = 0; i < 100; i++) logger.info({ i }, 'line'); throw new Error('boom');"],
  ])(
    'writes out every buffered line of a process that %s',
    async (_, script) => {
      const { lines } = await linesOf(script);
      expect(lines.map((line) => line.i)).toEqual(Array.from({ length: 100 }, (__, i) => i));
    },
    30_000,
  );
});
