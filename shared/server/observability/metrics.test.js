const { createMetrics } = require('./metrics');

/**
 * The sample lines of one metric, without help and type lines.
 * @param {ReturnType<typeof createMetrics>} metrics
 * @param {string} name
 */
async function samples(metrics, name) {
  const text = await metrics.registry.metrics();
  return text.split('\n').filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `));
}

describe('the metrics of a server', () => {
  it("counts visitors' vitals in seconds (CLS as a score), page views and errors by their labels", async () => {
    const metrics = createMetrics();
    const labels = { route: '/featured-jobs', remote: 'jobs', release: '0123456789abcdef', device: 'mobile' };
    metrics.webVital(labels, 'LCP', 2500);
    metrics.webVital(labels, 'CLS', 0.3);
    metrics.pageView({ ...labels, nav: 'document' });
    metrics.browserError({ remote: 'jobs', release: '0123456789abcdef', source: 'error' });
    metrics.beacon('accepted');
    expect(await samples(metrics, 'nativegtm_web_vital_seconds_bucket')).toContain(
      'nativegtm_web_vital_seconds_bucket{le="2.5",metric="LCP",route="/featured-jobs",remote="jobs",release="0123456789abcdef",device="mobile"} 1',
    );
    expect(await samples(metrics, 'nativegtm_web_vital_cls_bucket')).toContain(
      'nativegtm_web_vital_cls_bucket{le="0.25",route="/featured-jobs",remote="jobs",release="0123456789abcdef",device="mobile"} 0',
    );
    expect(await samples(metrics, 'nativegtm_page_views_total')).toEqual([
      'nativegtm_page_views_total{route="/featured-jobs",remote="jobs",release="0123456789abcdef",device="mobile",nav="document"} 1',
    ]);
    expect(await samples(metrics, 'nativegtm_browser_errors_total')).toEqual([
      'nativegtm_browser_errors_total{remote="jobs",release="0123456789abcdef",source="error"} 1',
    ]);
    expect(await samples(metrics, 'nativegtm_field_data_beacons_total')).toEqual([
      'nativegtm_field_data_beacons_total{outcome="accepted"} 1',
    ]);
  });

  it('counts requests by server, route and status', async () => {
    const metrics = createMetrics();
    metrics.request('shell', '/employers', 200);
    metrics.request('shell', '/employers', 200);
    metrics.request('shell', 'not-found', 404);
    expect(await samples(metrics, 'nativegtm_http_requests_total')).toEqual([
      'nativegtm_http_requests_total{server="shell",route="/employers",status="200"} 2',
      'nativegtm_http_requests_total{server="shell",route="not-found",status="404"} 1',
    ]);
  });

  it('times fragments by remote and outcome, and counts timeouts and failures by reason', async () => {
    const metrics = createMetrics();
    metrics.fragmentFetched('jobs', 0.003, 'ok');
    metrics.fragmentFetched('jobs', 0.4, 'timeout');
    metrics.fragmentFetched('jobs', 0.002, 'status');
    metrics.fragmentCacheHit('jobs');
    expect(await samples(metrics, 'nativegtm_fragment_fetch_duration_seconds_count')).toEqual([
      'nativegtm_fragment_fetch_duration_seconds_count{remote="jobs",outcome="ok"} 1',
      'nativegtm_fragment_fetch_duration_seconds_count{remote="jobs",outcome="timeout"} 1',
      'nativegtm_fragment_fetch_duration_seconds_count{remote="jobs",outcome="status"} 1',
    ]);
    expect(await samples(metrics, 'nativegtm_fragment_timeouts_total')).toEqual([
      'nativegtm_fragment_timeouts_total{remote="jobs"} 1',
    ]);
    expect(await samples(metrics, 'nativegtm_fragment_failures_total')).toEqual([
      'nativegtm_fragment_failures_total{remote="jobs",reason="timeout"} 1',
      'nativegtm_fragment_failures_total{remote="jobs",reason="status"} 1',
    ]);
    expect(await samples(metrics, 'nativegtm_fragment_cache_hits_total')).toEqual([
      'nativegtm_fragment_cache_hits_total{remote="jobs"} 1',
    ]);
  });

  it('shows only the build each remote runs now', async () => {
    const metrics = createMetrics();
    metrics.liveBuild('jobs', 'aaaa');
    metrics.liveBuild('candidates', 'cccc');
    metrics.liveBuild('jobs', 'bbbb');
    expect((await samples(metrics, 'nativegtm_remote_build_info')).sort()).toEqual([
      'nativegtm_remote_build_info{remote="candidates",build="cccc"} 1',
      'nativegtm_remote_build_info{remote="jobs",build="bbbb"} 1',
    ]);
  });

  it('keeps two registries apart, and includes the process figures', async () => {
    const one = createMetrics();
    const other = createMetrics();
    one.request('shell', '/', 200);
    expect(await samples(other, 'nativegtm_http_requests_total')).toEqual([]);
    expect(await other.registry.metrics()).toMatch(/^nativegtm_process_resident_memory_bytes \d+/m);
  });
});
