// Processes started at once, for tests of what must hold when several servers or commands race (one key file, one
// winner): each runs the same script and its standard output comes back.
const { spawn } = require('node:child_process');

/**
 * Starts `count` Node processes at once, each running `script` with `args`, and resolves with each one's output.
 * @param {number} count
 * @param {string} script JavaScript for `node -e`
 * @param {string[]} args its process.argv from [1] on
 * @returns {Promise<string[]>}
 */
function racingProcesses(count, script, args) {
  return Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise((resolve, reject) => {
          const child = spawn(process.execPath, ['-e', script, ...args]);
          let out = '';
          child.stdout.on('data', (chunk) => (out += chunk));
          child.on('error', reject);
          child.on('close', () => resolve(out));
        }),
    ),
  );
}

module.exports = { racingProcesses };
