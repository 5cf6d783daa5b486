/** @jest-environment node */
// `npm start` with a bad environment: refused before it builds or listens, one line per bad variable, exit 1.
const { spawnSync } = require('node:child_process');
const path = require('node:path');

it('stops before any build, naming each bad variable, exit 1', () => {
  const result = spawnSync(process.execPath, [path.join(__dirname, 'start.js')], {
    encoding: 'utf8',
    env: { ...process.env, PORT_BASE: 'abc', METRICS_PORT: '70000', WEB_CONCURRENCY: '2' },
    timeout: 20_000,
  });
  expect(result.status).toBe(1);
  // Nothing logged: no build started (its lines go to stdout), no server listened.
  expect(result.stdout).toBe('');
  expect(result.stderr).toBe(
    'Invalid environment:\n' +
      '  PORT_BASE="abc": must be a port from 1 to 65531 (the remotes take the 4 ports after it)\n' +
      '  METRICS_PORT="70000": must be a port from 0 to 65535\n',
  );
});
