import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deployables } from '@nativegtm/server/deployables';
import { startSite } from '@nativegtm/server/startSite';
import { createMetrics } from '@nativegtm/server/observability/metrics';
import { startMetricsServer } from '@nativegtm/server/observability/metricsServer';
import { captureLogs } from '@nativegtm/server/observability/logCapture';
import { shippedRemotes } from '@nativegtm/contract/remotesConfig';
import { portsFrom } from '@nativegtm/contract/ports';
import { fragmentPaths } from '@nativegtm/contract/fragments';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/chromium';
import { rawGet } from '../support/rawGet';
import { eventually } from '../support/eventually';
import { ports as testPorts } from '../support/site';

// What an operator sees of the built-in server: health, readiness, metrics and logs, with one remote down (jobs'
// remotes.json entry points at a port nothing listens on).

const base = testPorts.shell! + 42;
const ports = portsFrom(base);
const metricsPort = base + 5;
const downPort = base + 6;
const folder = mkdtempSync(join(tmpdir(), 'nativegtm-operations-'));
const logs = captureLogs();
const metrics = createMetrics();
let stop: (() => Promise<unknown>) | undefined;
let browser: Browser | undefined;
jest.setTimeout(120_000);

/** The build id the remote's ssr/manifest.json names. */
const buildOf = (pkg: string) =>
  JSON.parse(readFileSync(join(deployables.find((d) => d.name === pkg)!.dir, 'dist', fragmentPaths.manifest), 'utf8'))
    .buildId as string;

beforeAll(async () => {
  const remotesFile = join(folder, 'remotes.json');
  const remotes = shippedRemotes({ portOf: (page) => ports[page.package]! });
  writeFileSync(remotesFile, JSON.stringify({ ...remotes, jobs: `http://localhost:${downPort}/mf-manifest.json` }));
  const site = await startSite(deployables, { ports, remotesFile, logger: logs.logger, metrics });
  const server = await startMetricsServer(metrics, { port: metricsPort });
  stop = () => Promise.all([site.stop(), server.stop()]);
});
afterAll(async () => {
  await browser?.close();
  await stop?.();
  rmSync(folder, { recursive: true, force: true });
});

describe('the built-in server, for its operators', () => {
  it('answers /healthz on the shell and every remote', async () => {
    for (const port of Object.values(ports)) {
      const response = await rawGet(port, '/healthz');
      expect([port, response.status, response.body]).toEqual([port, 200, 'ok\n']);
    }
  });

  it('stays ready for a balancer while a remote is down, says which and why, and is not ready for a rollout', async () => {
    await rawGet(base, '/employers');
    // A probe allows each remote a second: on a machine whose cores are busy with other work, a remote that is up
    // can miss it once. The remote that is down never answers, whichever probe it is.
    const response = await eventually(
      () => rawGet(base, '/readyz'),
      ({ body }) =>
        Object.values(JSON.parse(body).remotes).filter((remote) => (remote as { ready: boolean }).ready).length === 3,
      { timeoutMs: 10_000, what: 'the readiness of the remotes that are up' },
    );
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const forRollout = await rawGet(base, '/readyz/remotes');
    expect(forRollout.status).toBe(503);
    expect(JSON.parse(forRollout.body)).toMatchObject({
      ready: true,
      remotesReady: false,
      remotes: { jobs: { ready: false, error: 'unreachable' } },
    });
    const body = JSON.parse(response.body);
    expect(body).toMatchObject({
      ready: true,
      remotesReady: false,
      remotesJson: 'ok',
      remotes: {
        jobs: { ready: false, error: 'unreachable' },
        employers: { ready: true, build: buildOf('employers-mfe') },
        candidates: { ready: true },
        comingSoon: { ready: true },
      },
    });
  });

  it('counts requests, documents and fragments by remote, and shows the live build of each remote', async () => {
    await rawGet(base, '/featured-jobs');
    await rawGet(base, '/employers');
    await rawGet(base, '/no/such/page');
    const text = await eventually(
      async () => (await rawGet(metricsPort, '/metrics')).body,
      (body) => /nativegtm_fragment_failures_total\{remote="jobs",reason="unreachable"\} [1-9]/.test(body),
      { what: 'the metrics' },
    );
    expect(text).toMatch(/nativegtm_http_requests_total\{server="shell",route="\/employers",status="200"\} [2-9]/);
    expect(text).toMatch(/nativegtm_http_requests_total\{server="shell",route="not-found",status="404"\} 1/);
    expect(text).toMatch(/nativegtm_document_duration_seconds_count\{route="\/featured-jobs"\} 1/);
    expect(text).toMatch(/nativegtm_fragment_fetch_duration_seconds_count\{remote="employers",outcome="ok"\} [1-9]/);
    expect(text).toContain(`nativegtm_remote_build_info{remote="employers",build="${buildOf('employers-mfe')}"} 1`);
  });

  it('keeps its metrics off the public origin', async () => {
    const response = await rawGet(base, '/metrics');
    expect(response.status).toBe(404);
    expect(response.body).not.toContain('nativegtm_');
  });

  it('logs each request as JSON with the id it sends back, and each failing fragment with its remote', async () => {
    const response = await rawGet(base, '/coming-soon', { 'X-Request-Id': 'probe-1' });
    expect(response.headers['x-request-id']).toBe('probe-1');
    const line = await eventually(
      async () => logs.lines.find((entry) => entry.reqId === 'probe-1'),
      (entry) => entry !== undefined,
      { what: 'the request line' },
    );
    expect(line).toMatchObject({
      msg: 'request',
      server: 'shell',
      url: '/coming-soon',
      route: '/coming-soon',
      status: 200,
    });
    expect(logs.lines).toContainEqual(
      expect.objectContaining({
        msg: 'fragment failed',
        remote: 'jobs',
        reason: 'unreachable',
        url: `http://localhost:${downPort}/ssr/manifest.json`,
      }),
    );
  });
});

describe('reports from browsers, for the operators', () => {
  beforeAll(async () => {
    browser = await launchChromium();
  });

  it("logs and counts the shell's report of a remote that failed to load, with the route", async () => {
    const page = await browser!.newPage();
    await page.goto(`http://localhost:${base}/featured-jobs`);
    await page.getByRole('heading', { level: 1, name: 'Unexpected Application Error!' }).waitFor();
    const line = await eventually(
      async () => logs.lines.find((entry) => entry.msg === 'browser report'),
      (entry) => entry !== undefined,
      { timeoutMs: 10_000, what: 'the report line' },
    );
    expect(line!.report).toMatchObject({ type: 'remote-failure', remote: 'jobs', route: '/featured-jobs' });
    expect((await rawGet(metricsPort, '/metrics')).body).toMatch(
      /nativegtm_browser_reports_total\{type="remote-failure",outcome="accepted"\} [1-9]/,
    );
    await page.close();
  });
});
