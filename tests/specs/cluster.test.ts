import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { portsFrom } from '@nativegtm/contract/ports';
import { shippedRemotes } from '@nativegtm/contract/remotesConfig';
import { REPORTS_PATH } from '@nativegtm/contract/reports';
import { rawExchange } from '../support/rawExchange';
import { ports as testPorts } from '../support/site';

// `npm start` as operators run it: a primary and one worker per core sharing the ports, a rolling restart on SIGHUP
// under load, and SIGTERM finishing the requests under way before the process exits.

jest.setTimeout(120_000);

// Ports B+130..B+134, metrics on B+135: see the port plan in tests/support/testSite.js.
const base = testPorts.shell! + 130;
const ports = portsFrom(base);
const metricsPort = base + 5;
const repoRoot = resolve(__dirname, '../..');
const folder = mkdtempSync(join(tmpdir(), 'nativegtm-cluster-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

interface LogLine {
  msg: string;
  pid: number;
  workers?: number[];
}

/** `npm start`'s command with the test's ports, two workers; resolves once it says it runs. */
async function startCluster() {
  const remotesFile = join(folder, 'remotes.json');
  writeFileSync(remotesFile, JSON.stringify(shippedRemotes({ portOf: (page) => ports[page.package]! })));
  const child = spawn(process.execPath, ['shared/server/commands/start.js'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT_BASE: String(base),
      REMOTES_FILE: remotesFile,
      METRICS_PORT: String(metricsPort),
      WEB_CONCURRENCY: '2',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: LogLine[] = [];
  let output = '';
  let pending = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const complete = pending.split('\n');
    pending = complete.pop()!;
    for (const line of complete) {
      output += `${line}\n`;
      try {
        lines.push(JSON.parse(line) as LogLine);
      } catch {
        // Not a log line (a build's output): kept in `output` only.
      }
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  /** The first log line whose message starts with `text`, once it is written. */
  const line = async (text: string, timeoutMs = 60_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = lines.find((entry) => entry.msg.startsWith(text));
      if (found) return found;
      if (Date.now() > deadline || child.exitCode !== null) {
        throw new Error(`no log line "${text}" within ${timeoutMs} ms:\n${output}`);
      }
      await new Promise((done) => setTimeout(done, 50));
    }
  };
  const running = await line('NativeGTM is running');
  return { child, lines, line, exited, workers: running.workers!, output: () => output };
}

/** GETs `path` on the shell with a kept-alive agent; resolves the status, or the error's code. */
function get(agent: Agent, path: string): Promise<number | string> {
  return new Promise((done) => {
    const req = request({ host: '127.0.0.1', port: ports.shell, path, agent }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode ?? 0));
      res.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
    });
    req.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
    req.end();
  });
}

describe('npm start: the built-in server on every core', () => {
  let cluster: Awaited<ReturnType<typeof startCluster>> | undefined;
  afterAll(async () => {
    if (cluster && cluster.child.exitCode === null) {
      cluster.child.kill('SIGKILL');
      await cluster.exited;
    }
  });

  it('serves from one worker per requested core, and its metrics add up every worker', async () => {
    cluster = await startCluster();
    expect(cluster.workers).toHaveLength(2);
    expect(new Set([cluster.child.pid, ...cluster.workers]).size).toBe(3);
    const agent = new Agent({ keepAlive: false });
    for (let index = 0; index < 20; index += 1) expect(await get(agent, '/employers')).toBe(200);
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const served = /nativegtm_http_requests_total\{[^}]*route="\/employers"[^}]*status="200"[^}]*\} (\d+)/.exec(text);
    expect(Number(served?.[1])).toBeGreaterThanOrEqual(20);
  });

  it('replaces every worker on SIGHUP, one at a time, failing no request under load', async () => {
    const { child, workers, line } = cluster!;
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    const results: (number | string)[] = [];
    let loading = true;
    const client = async (index: number) => {
      while (loading) results.push(await get(agent, index % 2 ? '/employers' : '/remotes.json'));
    };
    const load = Promise.all(Array.from({ length: 16 }, (_, index) => client(index)));
    await new Promise((done) => setTimeout(done, 500));
    child.kill('SIGHUP');
    const done = await line('rolling restart done');
    await new Promise((wait) => setTimeout(wait, 500));
    loading = false;
    await load;
    agent.destroy();

    expect(done.workers).toHaveLength(2);
    expect(done.workers!.filter((pid) => workers.includes(pid))).toEqual([]);
    const failed = results.filter((result) => result !== 200);
    expect({ requests: results.length > 200, failed }).toEqual({ requests: true, failed: [] });
  });

  it('finishes a request under way on SIGTERM, then exits 0', async () => {
    const { child, exited } = cluster!;
    const body = JSON.stringify({
      type: 'remote-failure',
      remote: 'jobs',
      build: 'b',
      route: '/featured-jobs',
      message: 'x',
    });
    const half = Math.floor(body.length / 2);
    const head =
      `POST ${REPORTS_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${body.length}\r\n\r\n`;
    // The request's second half comes a second after its first; the server is told to stop in between.
    const exchange = rawExchange(ports.shell!, [head + body.slice(0, half), body.slice(half)], {
      gapMs: 1000,
      timeoutMs: 10_000,
    });
    await new Promise((done) => setTimeout(done, 300));
    child.kill('SIGTERM');
    const answer = await exchange;
    expect(answer.status).toBe(204);
    expect(await exited).toBe(0);
    // Nothing listens any more.
    expect(await get(new Agent(), '/')).toBe('ECONNREFUSED');
  });
});
