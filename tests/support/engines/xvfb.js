// A virtual X display for browsers without a headless mode (MiniBrowser).
const { spawn } = require('node:child_process');
const { stopProcess } = require('../stopProcess');

/**
 * Starts Xvfb on a display number it chooses itself (-displayfd), so parallel runs cannot collide. `-noreset`: by
 * default an X server resets when its last client leaves, and a client connecting meanwhile is refused ("cannot open
 * display"); each test's MiniBrowser quits just as the next test's opens, which is that moment.
 * @param {string} program
 * @returns {Promise<{ display: string, stop: () => Promise<void> }>} display: its name for DISPLAY, e.g. ":99"
 */
function startXvfb(program) {
  const args = ['-displayfd', '3', '-screen', '0', '1600x1200x24', '-nolisten', 'tcp', '-noreset'];
  const xvfb = spawn(program, args, {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  // Both pipes, as stdio above asks.
  const errors = /** @type {import('node:stream').Readable} */ (xvfb.stderr);
  const displayfd = /** @type {import('node:stream').Readable} */ (xvfb.stdio[3]);
  errors.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-2000);
  });
  return new Promise((resolve, reject) => {
    /** @param {string} reason */
    const fail = (reason) => {
      clearTimeout(timer);
      xvfb.kill('SIGKILL');
      reject(new Error(`Xvfb did not start: ${reason} ${stderr}`));
    };
    const timer = setTimeout(() => fail('no display within 10 s.'), 10_000);
    xvfb.once('error', (error) => fail(error.message));
    xvfb.once('exit', (code) => fail(`it exited with ${code}.`));
    displayfd.on('data', (chunk) => {
      clearTimeout(timer);
      xvfb.removeAllListeners('exit');
      resolve({ display: `:${String(chunk).trim()}`, stop: () => stopProcess(xvfb) });
    });
  });
}

module.exports = { startXvfb };
