// Each tree served as its own commands serve it (`npm start`, `npm run nginx:config` and nginx with `npm run collect`
// beside it), never through this checkout's code: what is compared is each commit's servers. Both trees get the same
// settings: the same workers, a release store per tree (empty unless a canary is measured), a field-data folder of
// their own, logs to a pipe this process reads and throws away (as a terminal or a log shipper reads them: /dev/null
// would make each line's write cost nothing). A server whose document of /employers lacks the page's server-rendered HTML is not
// measured: a broken document is served faster than a whole one.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const { portsFrom } = require('@nativegtm/contract/ports');
const { shippedRemotes } = require('@nativegtm/contract/remotesConfig');
const { locateTool } = require('../../support/systemTools');
const { waitForPort } = require('../../support/waitForPort');

/** @typedef {import('./trees').Tree} Tree */
/** Where nginx's collector listens, after the site's ports (its metrics on the next one). */
const COLLECTOR_OFFSET = 5;
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
 * Whether the tree's package.json has the npm script.
 * @param {Tree} tree
 * @param {string} name
 */
function hasScript(tree, name) {
  const manifest = JSON.parse(fs.readFileSync(path.join(tree.dir, 'package.json'), 'utf8'));
  return typeof manifest.scripts?.[name] === 'string';
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
 * Resolves once no process of the child's group is left, or after 10 s.
 * @param {import('node:child_process').ChildProcess} child
 */
async function groupGone(child) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      process.kill(-(/** @type {number} */ (child.pid)), 0);
    } catch {
      return;
    }
    if (Date.now() > deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A tree's server once every port of its site listens; stopping it stops its process group and removes its folder.
 * @param {Served['kind']} kind
 * @param {Tree} tree
 * @param {number} base
 * @param {{ child: import('node:child_process').ChildProcess, signal: NodeJS.Signals, folder: string,
 *   timeoutMs: number, beside?: import('node:child_process').ChildProcess[] }} process  signal: what stops it
 *   gracefully; folder: its own scratch folder; beside: processes stopped with it (nginx's collector)
 * @returns {Promise<Served>}
 */
async function served(kind, tree, base, { child, signal, folder, timeoutMs, beside = [] }) {
  const what = `${tree.label}'s ${kind === 'nginx' ? 'nginx' : 'npm start'}`;
  const stop = async () => {
    await stopChild(child, signal);
    await Promise.all(beside.map((other) => stopChild(other, 'SIGTERM')));
    // npm exits once its child has, while the workers may still be writing out what they hold into the folder.
    await Promise.all([child, ...beside].map(groupGone));
    fs.rmSync(folder, { recursive: true, force: true, maxRetries: 5 });
  };
  try {
    await Promise.all(Object.values(portsFrom(base)).map((port) => waitForPort(port, { timeoutMs, what })));
    await wholeDocument(`http://127.0.0.1:${base}`, what);
  } catch (error) {
    await stop();
    throw error;
  }
  return { kind, tree, origin: `http://127.0.0.1:${base}`, stop };
}

/**
 * Throws unless the server's document of /employers carries the page's server-rendered HTML within 10 s.
 * @param {string} origin
 * @param {string} what
 */
async function wholeDocument(origin, what) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const text = await fetch(`${origin}/employers`)
      .then((response) => response.text())
      .catch(() => '');
    if (text.includes('data-remote="employers"')) return;
    if (Date.now() > deadline) throw new Error(`${what}'s /employers has no server-rendered HTML: not measured`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
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
    stdio: ['ignore', 'pipe', 'inherit'],
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
  child.stdout?.resume();
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
  const remotesFile = remotesFileFor(prefix, base);
  // The collector beside nginx (field data, /remotes.json, a release's server-rendered files), on the ports after
  // the site's, where the tree has one: an older tree's nginx serves without it.
  const collectorEnv = { COLLECTOR_PORT: String(base + COLLECTOR_OFFSET) };
  const collector = hasScript(tree, 'collect')
    ? spawn('npm', ['run', '--silent', 'collect'], {
        cwd: tree.dir,
        detached: true,
        stdio: ['ignore', 'ignore', 'inherit'],
        env: {
          ...process.env,
          ...collectorEnv,
          FIELD_DATA_DIR: path.join(prefix, 'field-data'),
          RELEASES_DIR: store,
          REMOTES_FILE: remotesFile,
          // Where nginx:config's --documents points by default: a tree whose collector composes documents for nginx
          // composes them there, as an operator runs it; an older one reads no such variable.
          DOCUMENTS_DIR: path.join(prefix, 'documents'),
          METRICS_HOST: '127.0.0.1',
          METRICS_PORT: String(base + COLLECTOR_OFFSET + 1),
          LOG_LEVEL: 'silent',
        },
      })
    : undefined;
  const beside = collector ? [collector] : [];
  const stopBeside = () => Promise.all(beside.map((other) => stopChild(other, 'SIGTERM')));
  try {
    if (collector) await waitForPort(base + COLLECTOR_OFFSET, { timeoutMs: 30_000, what: `${tree.label}'s collector` });
  } catch (error) {
    await stopBeside();
    fs.rmSync(prefix, { recursive: true, force: true });
    throw error;
  }
  const generated = spawnSync(
    'npm',
    [
      'run',
      '--silent',
      'nginx:config',
      '--',
      ...['--port-base', String(base), '--prefix', prefix, '--releases', store],
      ...['--remotes', remotesFile, '--out', config],
    ],
    { cwd: tree.dir, encoding: 'utf8', env: { ...process.env, ...collectorEnv } },
  );
  if (generated.status !== 0) {
    await stopBeside();
    throw new Error(`${tree.label}'s nginx:config failed:\n${generated.stderr}`);
  }
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
  return served('nginx', tree, base, {
    child,
    signal: 'SIGQUIT',
    folder: prefix,
    timeoutMs: 10_000,
    beside,
  });
}

module.exports = { startBuiltIn, startNginxOf };
