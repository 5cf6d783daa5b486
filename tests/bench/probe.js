// Runs tests/bench/load.js in its own process (the server under test keeps the caller's event loop), for the
// benches that measure load: `npm run bench` and `npm run bench:releases`.
const path = require('node:path');
const { spawn } = require('node:child_process');

/**
 * @param {string[]} args load.js's mode and its arguments
 * @param {Record<string, string>} [env] added to this process's environment (LOAD_COOKIE)
 * @returns {Promise<unknown>} what load.js printed for this mode (its result types)
 */
function probe(args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(__dirname, 'load.js'), ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ...env },
    });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`load.js exited with ${code}`)),
    );
  });
}

module.exports = { probe };
