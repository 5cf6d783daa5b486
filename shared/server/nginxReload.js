// nginx reads running canaries when it loads its configuration (@nativegtm/tools' nginx/releaseLocations.js), from
// files written from each canary's state just before (canaryInStore.js), so whatever changes a canary reloads every
// nginx that serves the store after it: the canary command on a folder store, the collector beside each nginx when it
// syncs its copy of a store on PostgreSQL. `npm run nginx:config` registers the nginx it
// configures in the store (its pid file); a reload is a SIGHUP to that nginx's master, which loads the configuration
// again, starts new workers and lets the old ones finish the requests they hold (no request is dropped). Signalling
// it takes the user nginx runs as, or root (docs/releasing.md#nginx-reloads).
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { isRemoteName } = require('@nativegtm/contract/remotes');
const { writeNginxCanaryMaps } = require('@nativegtm/store/canaryInStore');
const { storeLayout } = require('@nativegtm/store/layout');
const { StoreRefusal } = require('@nativegtm/store/storeRefusal');
const { processTable } = require('./processTable');

/** The store's folder of registered nginx servers: one file per server, holding its pid file's path. */
const REGISTRY = '.nginx-servers';
/**
 * How long a reload may take before it is called failed. nginx loads this configuration in milliseconds on a quiet
 * machine; with both cores busy (a canary command of the tests beside a build and a process spinning on each core)
 * its master took more than 5 s to start the new workers. A reload that never comes (a configuration nginx refuses)
 * is told this late.
 */
const RELOAD_TIMEOUT_MS = 30_000;
/**
 * The same for a caller that tries again at its next look (the collector, whose look at the store must not be held
 * that long): a reload that is only slow has taken by the next try.
 */
const RETRIED_RELOAD_TIMEOUT_MS = 5000;

/**
 * An nginx serving the store could not be made to read the canaries: the one line says which and why. The store's
 * change it followed stands (or, for a canary's start, is withdrawn): a refusal of the command.
 */
class NginxReloadError extends StoreRefusal {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'NginxReloadError';
  }
}

/**
 * Writes nginx's view of every remote's canary in the store from its state (canaryInStore.js writeNginxCanaryMaps),
 * as it must be before any nginx loads its configuration.
 * @param {string} storeDir
 * @returns {{ remote: string, problem: string }[]} the canaries whose state cannot be used (no one is in them)
 */
function writeCanaryMaps(storeDir) {
  let names;
  try {
    names = fs.readdirSync(storeDir);
  } catch {
    return [];
  }
  return names.filter(isRemoteName).flatMap((remote) => {
    const problem = writeNginxCanaryMaps(storeLayout(storeDir, remote), remote);
    return problem === undefined ? [] : [{ remote, problem }];
  });
}

/**
 * Records that the nginx whose master writes `pidFile` serves `storeDir`, so that the canary command reloads it, and
 * writes what it reads of the canaries when it starts.
 * @param {string} storeDir
 * @param {string} pidFile
 */
function registerNginx(storeDir, pidFile) {
  writeCanaryMaps(storeDir);
  const dir = path.join(storeDir, REGISTRY);
  fs.mkdirSync(dir, { recursive: true });
  const name = createHash('sha256').update(pidFile).digest('hex').slice(0, 16);
  fs.writeFileSync(path.join(dir, name), `${pidFile}\n`);
}

/**
 * The pid files of the nginx servers registered in the store.
 * @param {string} storeDir
 * @returns {string[]}
 */
function registeredPidFiles(storeDir) {
  const dir = path.join(storeDir, REGISTRY);
  let names;
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const pidFile = fs.readFileSync(path.join(dir, name), 'utf8').trim();
    return path.isAbsolute(pidFile) ? [pidFile] : [];
  });
}

/**
 * The processes whose parent is `pid` (nginx's workers, cache manager and loader).
 * @param {number} pid
 * @returns {Set<number>}
 */
function childrenOf(pid) {
  return new Set(
    processTable()
      .filter((process) => process.parent === pid)
      .map((process) => process.pid),
  );
}

/**
 * The master's pid from its pid file; undefined when nginx does not run (it reads the store when it starts), or when
 * the process that has the number is not nginx's master.
 * @param {string} pidFile
 */
function masterPid(pidFile) {
  let text;
  try {
    text = fs.readFileSync(pidFile, 'utf8');
  } catch {
    return undefined;
  }
  const pid = Number(text.trim());
  return Number.isInteger(pid) && pid > 0 && isNginx(pid) ? pid : undefined;
}

/**
 * Whether the process is an nginx master: a pid file left behind by an nginx that died may name a process that
 * reused the number, which a SIGHUP would end.
 * @param {number} pid
 */
function isNginx(pid) {
  try {
    return /^nginx: master process/.test(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
  } catch {
    return false;
  }
}

/**
 * Whether a process is a worker of nginx that still takes requests: one whose graceful shutdown has begun says so in
 * its title, set just before it closes its listening sockets and its idle kept-alive connections.
 * @param {number} pid
 */
function workerTakingRequests(pid) {
  let title;
  try {
    title = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return false; // gone
  }
  return title.startsWith('nginx: worker process') && !title.includes('shutting down');
}

/**
 * Reloads one nginx and resolves once it has started a process of the new configuration and every worker of the old
 * one has stopped taking requests. Until then an old worker may still answer one with the old configuration: a new
 * connection it accepts, or the next request on a connection a client kept alive (a CDN's, a browser's). Nothing to
 * do when it does not run.
 * @param {string} pidFile
 * @param {number} timeoutMs
 * @returns {Promise<boolean>} whether it ran and was reloaded
 */
async function reloadOne(pidFile, timeoutMs) {
  const pid = masterPid(pidFile);
  if (pid === undefined) return false;
  const before = childrenOf(pid);
  try {
    process.kill(pid, 'SIGHUP');
  } catch (error) {
    const code = /** @type {NodeJS.ErrnoException} */ (error).code;
    if (code === 'ESRCH') return false; // a pid file nginx left behind
    throw new NginxReloadError(
      `cannot reload nginx (pid ${pid}, ${pidFile}): ${code === 'EPERM' ? 'not permitted; run this command as the user nginx runs as, or root' : code}`,
    );
  }
  const deadline = Date.now() + timeoutMs;
  let started = false;
  while (Date.now() < deadline) {
    started ||= [...childrenOf(pid)].some((child) => !before.has(child));
    if (started && ![...before].some(workerTakingRequests)) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new NginxReloadError(
    started
      ? `nginx (pid ${pid}, ${pidFile}) still has workers of the old configuration taking requests after ` +
          `${timeoutMs / 1000} s: see its error log`
      : `nginx (pid ${pid}, ${pidFile}) did not take the new canary state within ${timeoutMs / 1000} s: see its error log`,
  );
}

/**
 * Reloads every running nginx registered in the store, one after the other.
 * @param {string} storeDir
 * @param {{ timeoutMs?: number }} [options]
 * @returns {Promise<number>} how many were reloaded
 */
async function reloadNginx(storeDir, { timeoutMs = RELOAD_TIMEOUT_MS } = {}) {
  writeCanaryMaps(storeDir);
  let reloaded = 0;
  for (const pidFile of registeredPidFiles(storeDir)) {
    if (await reloadOne(pidFile, timeoutMs)) reloaded += 1;
  }
  return reloaded;
}

module.exports = { NginxReloadError, registerNginx, reloadNginx, RETRIED_RELOAD_TIMEOUT_MS };
