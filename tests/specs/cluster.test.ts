import { readdirSync, readFileSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { Agent, request } from 'node:http';
import { FIELD_DATA_PATH } from '@nativegtm/contract/fieldData';
import { portsFrom } from '@nativegtm/contract/ports';
import { REPORTS_PATH } from '@nativegtm/contract/reports';
import { eventually } from '../support/eventually';
import { startNpmStart } from '../support/npmStart';
import { rawExchange } from '../support/rawExchange';
import { ports as testPorts } from '../support/site';

// `npm start` as operators run it: a primary and one worker per core sharing the ports, a rolling restart on SIGHUP
// under load, and SIGTERM finishing the requests under way before the process exits.

jest.setTimeout(120_000);

// Ports B+130..B+134, metrics on B+135: see the port plan in tests/support/testSite.js.
const base = testPorts.shell! + 130;
const ports = portsFrom(base);
const metricsPort = base + 5;

/** `npm start` with the test's ports and two workers. */
const startCluster = () => startNpmStart({ base, metricsPort, workers: 2 });

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

/** POSTs `body` to the shell on a connection of its own (the primary hands each to the next worker); the status. */
function post(path: string, body: string): Promise<number | string> {
  return new Promise((done) => {
    const req = request(
      { host: '127.0.0.1', port: ports.shell, path, method: 'POST', agent: new Agent({ keepAlive: false }) },
      (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode ?? 0));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
    req.setHeader('Content-Type', 'application/json');
    req.end(body);
  });
}

/**
 * The release of each view record received from `since`, by the process that wrote it (each writes its own file,
 * `<hour>/<host>-<pid>.ndjson`: see docs/field-data.md).
 */
function viewReleasesByWriter(dir: string, since: number): Map<number, string[]> {
  const byPid = new Map<number, string[]>();
  let entries: Dirent[] = [];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return byPid;
  }
  // Hour folders only: the folder also holds the tokens' key.
  for (const hour of entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name)) {
    for (const file of readdirSync(join(dir, hour))) {
      const pid = Number(/-(\d+)\.ndjson$/.exec(file)?.[1]);
      for (const line of readFileSync(join(dir, hour, file), 'utf8').split('\n')) {
        if (!line) continue;
        const record = JSON.parse(line) as { t: number; type: string; release?: string };
        if (record.type !== 'view' || record.t < since) continue;
        byPid.set(pid, [...(byPid.get(pid) ?? []), record.release ?? '']);
      }
    }
  }
  return byPid;
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

  it("labels a beacon with its remote's live build on every worker, for a page no worker composed", async () => {
    const { fieldDataDir, workers } = cluster!;
    // No document of /featured-jobs is composed in this file: the build is read from the jobs remote itself, as the
    // shell's JavaScript would have loaded it after an in-app navigation.
    const manifest = await fetch(`http://127.0.0.1:${ports['jobs-mfe']}/ssr/manifest.json`);
    const { buildId } = (await manifest.json()) as { buildId: string };
    const beacon = JSON.stringify({
      v: 1,
      first: true,
      view: { seq: 1, route: '/featured-jobs', remote: 'jobs', build: buildId, nav: 'navigation', device: 'desktop' },
      vitals: [{ name: 'LCP', value: 900 }],
    });
    const since = Date.now();
    for (let index = 0; index < 8; index += 1) expect(await post(FIELD_DATA_PATH, beacon)).toBe(204);
    const byWriter = await eventually(
      async () => viewReleasesByWriter(fieldDataDir, since),
      (views) => [...views.values()].flat().length >= 8,
      { timeoutMs: 5000, what: 'the view records of each worker' },
    );
    expect([...byWriter.keys()].sort()).toEqual([...workers].sort());
    for (const releases of byWriter.values()) expect(new Set(releases)).toEqual(new Set([buildId]));
  });

  it('serves the field-data status page beside the metrics, from the primary', async () => {
    const response = await fetch(`http://127.0.0.1:${metricsPort}/status`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toMatch(/^default-src 'none'; /);
    const html = await response.text();
    expect(html).toContain('<h1>NativeGTM field data: the last hour</h1>');
    for (const remote of ['candidates', 'employers', 'jobs', 'comingSoon'])
      expect(html).toContain(`id="remote-${remote}"`);
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
