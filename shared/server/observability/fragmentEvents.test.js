const { fragmentEvents } = require('./fragmentEvents');
const { createMetrics } = require('./metrics');
const { captureLogs } = require('./logCapture');

const url = 'http://localhost:3003/ssr/manifest.json';

describe('the fragment events of the document server', () => {
  /** @param {number} [repeatLogMs] */
  function setup(repeatLogMs = 10_000) {
    let time = 0;
    const { logger, lines } = captureLogs();
    const metrics = createMetrics();
    const events = fragmentEvents({ metrics, logger, repeatLogMs, now: () => time });
    return {
      events,
      lines,
      metrics,
      /** @param {number} ms */
      advance: (ms) => void (time += ms),
      /** @param {'ok' | import('./metrics').FragmentFailure} outcome */
      fetched: (outcome) => events.fetched?.({ url, label: 'jobs', seconds: 0.4, outcome }),
    };
  }

  it('logs the first failure with the remote and the reason, then once per period with what it left out', () => {
    const { lines, fetched, advance } = setup();
    fetched('timeout');
    fetched('timeout');
    advance(5_000);
    fetched('timeout');
    advance(5_001);
    fetched('timeout');
    expect(lines.map(({ msg, remote, reason, unlogged }) => ({ msg, remote, reason, unlogged }))).toEqual([
      { msg: 'fragment failed', remote: 'jobs', reason: 'timeout', unlogged: 0 },
      { msg: 'fragment failed', remote: 'jobs', reason: 'timeout', unlogged: 2 },
    ]);
    expect(lines[0]).toMatchObject({ level: 40, url, ms: 400 });
  });

  it('logs at once when the reason changes, and the recovery with the number of failures', () => {
    const { lines, fetched } = setup();
    fetched('timeout');
    fetched('unreachable');
    fetched('unreachable');
    fetched('ok');
    fetched('ok');
    expect(lines.map(({ msg, reason, failures }) => ({ msg, reason, failures }))).toEqual([
      { msg: 'fragment failed', reason: 'timeout', failures: undefined },
      { msg: 'fragment failed', reason: 'unreachable', failures: undefined },
      { msg: 'fragment fetched again', reason: undefined, failures: 3 },
    ]);
  });

  it('counts every fetch and every cache hit, logged or not', async () => {
    const { events, fetched, metrics, lines } = setup();
    fetched('ok');
    fetched('status');
    fetched('status');
    events.hit?.('jobs');
    const text = await metrics.registry.metrics();
    expect(text).toContain('nativegtm_fragment_failures_total{remote="jobs",reason="status"} 2');
    expect(text).toContain('nativegtm_fragment_cache_hits_total{remote="jobs"} 1');
    expect(lines).toHaveLength(1);
  });

  it('counts every document that left out a file the store did not vouch for, and logs it once per period', async () => {
    const { events, metrics, lines, advance } = setup();
    const body = 'http://localhost:3003/ssr/body/index.html?build=b1';
    events.refused?.({ url: body, label: 'jobs' });
    events.refused?.({ url: body, label: 'jobs' });
    advance(10_000);
    events.refused?.({ url: body, label: 'jobs' });
    expect(await metrics.registry.metrics()).toContain(
      'nativegtm_fragment_failures_total{remote="jobs",reason="unvouched"} 3',
    );
    expect(lines.map(({ msg, reason, url: file, unlogged }) => ({ msg, reason, file, unlogged }))).toEqual([
      { msg: 'fragment left out: not the bytes its release recorded', reason: 'unvouched', file: body, unlogged: 0 },
      { msg: 'fragment left out: not the bytes its release recorded', reason: 'unvouched', file: body, unlogged: 1 },
    ]);
  });
});
