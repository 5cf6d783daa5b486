// Each tree served as its own commands serve it (`npm start`, `npm run nginx:config` and nginx), never through this
// checkout's code: what is compared is each commit's servers. Both trees get the same settings: the same workers,
// a release store per tree (empty unless a canary is measured), a field-data folder of their own, no collector
// beside nginx, logs thrown away.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const { portsFrom } = require('@nativegtm/contract/ports');
const { shippedRemotes } = require('@nativegtm/contract/remotesConfig');
const { locateTool } = require('../../support/systemTools');
const { waitForPort } = require('../../support/waitForPort');

/** @typedef {import('./trees').Tree} Tree */
/** @typedef {{ kind: 'nginx' | 'built-in', tree: Tree, origin: string, stop: () => Promise<void> }} Served */

/**
 * remotes.json naming the remotes on the ports after `base`.
 * @param {string} folder
 * @param {number} base
 */
function remotesFileFor(folder, base) {
  const ports = portsFrom(base);
  const file = path.join(folder, 'remotes.json');
  const remotes = shippedRemotes({ portOf: (page) => /** @type {number} */ (ports[page.package]) });
  fs.writeFileSync(file, JSON.stringify(remotes));
  return file;
}

/**
 * Stops a child process group and waits for it.
 * @param {import('node:child_process').ChildProcess} child
 * @param {NodeJS.Signals} signal
 */
function stopChild(child, signal) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(undefined);
    child.once('exit', () => resolve(undefined));
    try {
      process.kill(-(/** @type {number} */ (child.pid)), signal);
    } catch {
      resolve(undefined);
    }
  });
}

/**
 * A tree's server once every port of its site listens; stopping it stops its process group and removes its folder.
 * @param {Served['kind']} kind
 * @param {Tree} tree
 * @param {number} base
 * @param {{ child: import('node:child_process').ChildProcess, signal: NodeJS.Signals, folder: string,
 *   timeoutMs: number }} process  signal: what stops it gracefully; folder: its own scratch folder
 * @returns {Promise<Served>}
 */
async function served(kind, tree, base, { child, signal, folder, timeoutMs }) {
  const what = `${tree.label}'s ${kind === 'nginx' ? 'nginx' : 'npm start'}`;
  await Promise.all(Object.values(portsFrom(base)).map((port) => waitForPort(port, { timeoutMs, what })));
  return {
    kind,
    tree,
    origin: `http://127.0.0.1:${base}`,
    stop: async () => {
      await stopChild(child, signal);
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}

/**
 * `npm start` of the tree, its site on `base` and the remotes after it.
 * @param {Tree} tree
 * @param {{ base: number, metricsPort: number, workers: number, store: string }} options store: its release store
 * @returns {Promise<Served>}
 */
async function startBuiltIn(tree, { base, metricsPort, workers, store }) {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-compare-'));
  const child = spawn('npm', ['run', '--silent', 'start'], {
    cwd: tree.dir,
    detached: true,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT_BASE: String(base),
      REMOTES_FILE: remotesFileFor(folder, base),
      RELEASES_DIR: store,
      FIELD_DATA_DIR: path.join(folder, 'field-data'),
      METRICS_HOST: '127.0.0.1',
      METRICS_PORT: String(metricsPort),
      WEB_CONCURRENCY: String(workers),
    },
  });
  return served('built-in', tree, base, { child, signal: 'SIGTERM', folder, timeoutMs: 120_000 });
}

/**
 * nginx with the configuration the tree's `npm run nginx:config` writes, on `base` and the ports after it.
 * @param {Tree} tree
 * @param {{ base: number, store: string }} options store: its release store
 * @returns {Promise<Served>}
 */
async function startNginxOf(tree, { base, store }) {
  const nginx = locateTool('NGINX_PATH');
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-compare-nginx-'));
  const config = path.join(prefix, 'nginx.conf');
  const generated = spawnSync(
    'npm',
    [
      'run',
      '--silent',
      'nginx:config',
      '--',
      ...['--port-base', String(base), '--prefix', prefix, '--releases', store],
      ...['--remotes', remotesFileFor(prefix, base), '--out', config],
    ],
    { cwd: tree.dir, encoding: 'utf8' },
  );
  if (generated.status !== 0) throw new Error(`${tree.label}'s nginx:config failed:\n${generated.stderr}`);
  // Listening on loopback only, and as root's workers can read a checkout in a private folder (as the tests do).
  const text = fs
    .readFileSync(config, 'utf8')
    .replace(/^(\s*listen )(\d+);/gm, '$1127.0.0.1:$2;')
    .replace(/^worker_processes auto;/m, 'worker_processes auto;\nuser root;');
  fs.writeFileSync(config, process.getuid?.() === 0 ? text : text.replace('\nuser root;', ''));
  const errorLog = path.join(prefix, 'error.log');
  const child = spawn(nginx, ['-e', errorLog, '-p', prefix, '-c', config, '-g', 'daemon off;'], {
    detached: true,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return served('nginx', tree, base, { child, signal: 'SIGQUIT', folder: prefix, timeoutMs: 10_000 });
}

module.exports = { startBuiltIn, startNginxOf };
