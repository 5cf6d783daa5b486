import { Agent, request } from 'node:http';
import { portsFrom } from '@nativegtm/contract/ports';
import { REPORTS_PATH } from '@nativegtm/contract/reports';
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
