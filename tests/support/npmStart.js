// `npm start`'s command (shared/tools/commands/start.js) in a child process, on other ports than a running `npm
// start`: for the tests of its processes (cluster.test.ts) and the bench's load figures, which measure the server as
// operators run it. Its JSON log lines are read as they come.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { portsFrom } = require('@nativegtm/contract/ports');
const { shippedRemotes } = require('@nativegtm/contract/remotesConfig');

const repoRoot = path.resolve(__dirname, '../..');

/** @typedef {{ msg: string, pid: number, workers?: number[] }} LogLine */

/**
 * Starts the command with the site on `base` (remotes after it) and its metrics on `metricsPort`; resolves once it
 * says it runs.
 * @param {{ base: number, metricsPort: number, workers?: number, remotes?: Record<string, string>,
 *   fieldDataDir?: string, env?: Record<string, string>, signal?: AbortSignal }} options
 *   workers: WEB_CONCURRENCY (one per core unless given); remotes: remotes.json entries that replace those of its own
 *   remotes (a remote served elsewhere); fieldDataDir: FIELD_DATA_DIR (a temporary folder unless given: never the
 *   checkout's); env: more of its environment (FIELD_DATA_SECRET, …); signal: stops it if it is still starting
 */
async function startNpmStart({ base, metricsPort, workers, remotes: elsewhere = {}, fieldDataDir, env = {}, signal }) {
  const ports = portsFrom(base);
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-npm-start-'));
  const remotesFile = path.join(folder, 'remotes.json');
  // portsFrom has every page's package.
  const remotes = shippedRemotes({ portOf: (page) => /** @type {number} */ (ports[page.package]) });
  fs.writeFileSync(remotesFile, JSON.stringify({ ...remotes, ...elsewhere }));
  const records = fieldDataDir ?? path.join(folder, 'field-data');
  const child = spawn(process.execPath, ['shared/tools/commands/start.js'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT_BASE: String(base),
      REMOTES_FILE: remotesFile,
      METRICS_PORT: String(metricsPort),
      ...(workers ? { WEB_CONCURRENCY: String(workers) } : {}),
      FIELD_DATA_DIR: records,
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  /** @type {LogLine[]} */
  const lines = [];
  let output = '';
  let pending = '';
  child.stdout.on('data', (/** @type {Buffer} */ chunk) => {
    pending += chunk.toString('utf8');
    const complete = pending.split('\n');
    pending = /** @type {string} */ (complete.pop());
    for (const line of complete) {
      // One line per request: neither read nor kept, so that a load on the server costs this process little.
      if (line.endsWith('"msg":"request"}')) continue;
      output += `${line}\n`;
      try {
        lines.push(JSON.parse(line));
      } catch {
        // Not a log line (a build's output): kept in `output` only.
      }
    }
  });
  child.stderr.on('data', (/** @type {Buffer} */ chunk) => {
    output += chunk.toString('utf8');
  });
  /** @type {Promise<number | null>} */
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  exited.then(() => fs.rmSync(folder, { recursive: true, force: true }));

  /**
   * The first log line whose message starts with `text`, once it is written.
   * @param {string} text
   * @param {number} [timeoutMs]
   * @returns {Promise<LogLine>}
   */
  const line = async (text, timeoutMs = 60_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = lines.find((entry) => entry.msg.startsWith(text));
      if (found) return found;
      // Ended by a signal (Ctrl+C signals its whole group), it has a signalCode and no exitCode.
      if (Date.now() > deadline || child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`npm start wrote no log line "${text}" within ${timeoutMs} ms:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  // Ended while it starts: stopped as an operator stops it, which fails the wait for its line at once; killed if it
  // is still there a moment later (busy in a synchronous build, which SIGTERM does not interrupt).
  const end = () => {
    child.kill('SIGTERM');
    setTimeout(() => child.exitCode === null && child.signalCode === null && child.kill('SIGKILL'), 3000).unref();
  };
  if (signal?.aborted) end();
  signal?.addEventListener('abort', end, { once: true });
  const running = await line('NativeGTM is running')
    .catch((error) => {
      child.kill('SIGKILL');
      throw error;
    })
    .finally(() => signal?.removeEventListener('abort', end));
  return {
    child,
    ports,
    lines,
    line,
    exited,
    /** The workers' process ids when it started. */
    workers: /** @type {number[]} */ (running.workers),
    remotesFile,
    /** Its FIELD_DATA_DIR, where every worker writes visitors' records. */
    fieldDataDir: records,
    /** Ends it as an operator does (SIGTERM: the requests under way finish); resolves its exit code. */
    stop: () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

module.exports = { startNpmStart };
