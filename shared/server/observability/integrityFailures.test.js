/** @jest-environment node */
const { createMetrics } = require('./metrics');
const { integrityFailuresIn } = require('./integrityFailures');

describe("the files refused for their integrity, read back from this node's metrics", () => {
  it('are counted by remote and release, as the metrics server serves them', async () => {
    const metrics = createMetrics();
    metrics.integrityFailure('jobs', '0123456789abcdef');
    metrics.integrityFailure('jobs', '0123456789abcdef');
    metrics.integrityFailure('jobs', 'other');
    metrics.integrityFailure('candidates', 'fedcba9876543210');
    const failures = integrityFailuresIn(await metrics.registry.metrics());
    expect(failures).toEqual(
      new Map([
        [
          'jobs',
          new Map([
            ['0123456789abcdef', 2],
            ['other', 1],
          ]),
        ],
        ['candidates', new Map([['fedcba9876543210', 1]])],
      ]),
    );
  });

  it('are none when nothing was refused, and read nothing else of the text', async () => {
    expect(integrityFailuresIn(await createMetrics().registry.metrics())).toEqual(new Map());
    const text = [
      '# HELP nativegtm_integrity_failures_total Files…',
      'nativegtm_integrity_failures_total_created{remote="jobs",release="a"} 17',
      'nativegtm_integrity_failures_total{remote="jobs",release="a\\"b"} 3',
      'nativegtm_integrity_failures_total{remote="jobs"} 3',
      'nativegtm_integrity_failures_total{remote="jobs",release="c"} NaN',
      'nativegtm_http_requests_total{remote="jobs",release="d"} 5',
    ].join('\n');
    expect(integrityFailuresIn(text)).toEqual(new Map([['jobs', new Map([['a"b', 3]])]]));
  });
});
