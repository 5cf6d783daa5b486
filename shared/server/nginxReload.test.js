const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { NginxReloadError, registerNginx, reloadNginx } = require('./nginxReload');

/** @type {string} */
let store;
/** @type {import('node:child_process').ChildProcess[]} */
const started = [];

beforeEach(() => {
  store = fs.mkdtempSync(path.join(os.tmpdir(), 'nginx-reload-'));
});
afterEach(() => {
  // Each stand-in's whole process group: its workers too. Killing the master alone left them running, titled
  // "nginx: worker process", long after the tests (orphans that looked like a leaked nginx).
  for (const child of started.splice(0)) {
    try {
      process.kill(-(/** @type {number} */ (child.pid)), 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
  fs.rmSync(store, { recursive: true, force: true });
});

/**
 * Until a stand-in master has written its pid: a file that exists may not be written yet, and an empty pid file names
 * no nginx.
 * @param {string} pidFile
 */
async function untilWritten(pidFile) {
  const written = () => /^\d+\n$/.test(fs.existsSync(pidFile) ? fs.readFileSync(pidFile, 'utf8') : '');
  for (let waited = 0; !written(); waited += 10) {
    if (waited > 10_000) throw new Error('the fake master did not start');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * A stand-in for nginx's master: a process that writes its pid file and, when `reloads`, answers SIGHUP as nginx does,
 * with a new child process (a worker of the new configuration).
 * @param {boolean} reloads
 * @returns {Promise<string>} its pid file
 */
async function fakeMaster(reloads) {
  const pidFile = path.join(store, `master-${started.length}.pid`);
  const script = `
    process.title = 'nginx: master process (a stand-in)';
    const { spawn } = require('node:child_process');
    const workers = [];
    process.on('SIGHUP', () => { if (${reloads}) workers.push(spawn('sleep', ['30'], { stdio: 'ignore' })); });
    process.on('SIGTERM', () => { for (const w of workers) w.kill(); process.exit(0); });
    require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, process.pid + '\\n');
    setInterval(() => {}, 1000);
  `;
  // In a process group of its own, with the workers it starts: afterEach ends them together.
  const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore', detached: true });
  started.push(child);
  await untilWritten(pidFile);
  return pidFile;
}

/**
 * A stand-in for nginx's master with workers as nginx's: titled so, each renamed by its graceful shutdown. A SIGHUP
 * starts a new worker, then tells the old ones to shut down `quitAfterMs` later (never: null), as nginx's master does.
 * @param {number | null} quitAfterMs
 * @returns {Promise<{ pidFile: string, oldWorker: () => number }>} oldWorker: the pid of the worker it started with
 */
async function masterWithWorkers(quitAfterMs) {
  const pidFile = path.join(store, `master-${started.length}.pid`);
  const worker = `
    process.title = 'nginx: worker process';
    process.on('SIGQUIT', () => { process.title = 'nginx: worker process is shutting down'; });
    setInterval(() => {}, 1000);
  `;
  const script = `
    process.title = 'nginx: master process (a stand-in)';
    const { spawn } = require('node:child_process');
    const fs = require('node:fs');
    const start = () => spawn(process.execPath, ['-e', ${JSON.stringify(worker)}], { stdio: 'ignore' });
    let workers = [start()];
    fs.writeFileSync(${JSON.stringify(pidFile)} + '.worker', workers[0].pid + '\\n');
    process.on('SIGHUP', () => {
      const old = workers;
      workers = [start()];
      const quit = ${JSON.stringify(quitAfterMs)};
      if (quit !== null) setTimeout(() => { for (const w of old) w.kill('SIGQUIT'); }, quit);
      setTimeout(() => { for (const w of old) w.kill('SIGKILL'); }, 30000);
    });
    process.on('SIGTERM', () => { for (const w of workers) w.kill('SIGKILL'); process.exit(0); });
    // Once its first worker has its title: until then it is not yet a worker nginx would have.
    const titled = () => { try { return fs.readFileSync('/proc/' + workers[0].pid + '/cmdline', 'utf8').startsWith('nginx: worker'); } catch { return false; } };
    const ready = setInterval(() => { if (titled()) { clearInterval(ready); fs.writeFileSync(${JSON.stringify(pidFile)}, process.pid + '\\n'); } }, 10);
    setInterval(() => {}, 1000);
  `;
  // In a process group of its own, with the workers it starts: afterEach ends them together.
  const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore', detached: true });
  started.push(child);
  await untilWritten(pidFile);
  const oldWorker = () => Number(fs.readFileSync(`${pidFile}.worker`, 'utf8'));
  return { pidFile, oldWorker };
}

/** @param {number} pid */
const titleOf = (pid) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0+$/, '');

describe('reloading the nginx servers that serve a store', () => {
  it('waits until the workers of the old configuration stop taking requests, not only for a new one', async () => {
    const { pidFile, oldWorker } = await masterWithWorkers(300);
    registerNginx(store, pidFile);
    const reloading = Date.now();
    expect(await reloadNginx(store)).toBe(1);
    expect(Date.now() - reloading).toBeGreaterThanOrEqual(300);
    expect(titleOf(oldWorker())).toBe('nginx: worker process is shutting down');
  });

  it('fails in one line when a worker of the old configuration goes on taking requests', async () => {
    const { pidFile } = await masterWithWorkers(null);
    registerNginx(store, pidFile);
    await expect(reloadNginx(store, { timeoutMs: 500 })).rejects.toThrow(
      new RegExp(
        `^nginx \\(pid \\d+, ${pidFile}\\) still has workers of the old configuration taking requests after 0.5 s`,
      ),
    );
  });

  it('signals each registered master and waits for a process of the new configuration', async () => {
    registerNginx(store, await fakeMaster(true));
    registerNginx(store, await fakeMaster(true));
    expect(await reloadNginx(store)).toBe(2);
  });

  it('skips an nginx that does not run: no pid file, or a pid file it left behind', async () => {
    registerNginx(store, path.join(store, 'never-started.pid'));
    const left = path.join(store, 'left.pid');
    fs.writeFileSync(left, '2147483646\n');
    registerNginx(store, left);
    expect(await reloadNginx(store)).toBe(0);
    // Nothing registered at all: nothing to do.
    expect(await reloadNginx(path.join(store, 'elsewhere'))).toBe(0);
  });

  it('never signals a process that is not nginx, as a pid file left behind may name', async () => {
    const other = spawn('sleep', ['30'], { stdio: 'ignore' });
    started.push(other);
    const pidFile = path.join(store, 'reused.pid');
    fs.writeFileSync(pidFile, `${other.pid}\n`);
    registerNginx(store, pidFile);
    expect(await reloadNginx(store)).toBe(0);
    // A signal's death would be told by the exit event, which comes after this turn.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(other.exitCode).toBeNull();
    expect(other.signalCode).toBeNull();
  });

  it('registers a server once, however often its configuration is generated', async () => {
    const pidFile = await fakeMaster(true);
    registerNginx(store, pidFile);
    registerNginx(store, pidFile);
    expect(fs.readdirSync(path.join(store, '.nginx-servers'))).toHaveLength(1);
  });

  it('fails in one line naming the server when it does not take the new configuration', async () => {
    const pidFile = await fakeMaster(false);
    registerNginx(store, pidFile);
    const failure = reloadNginx(store, { timeoutMs: 300 });
    await expect(failure).rejects.toThrow(NginxReloadError);
    await expect(failure).rejects.toThrow(new RegExp(`^nginx \\(pid \\d+, ${pidFile}\\) did not take the new canary`));
  });
});
