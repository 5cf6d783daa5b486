/** @jest-environment node */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { readPageQueries } = require('./readPageQueries');
const { renderNginxConfig } = require('./renderConfig');

// Where nginx's generator learns each page's query parameters: the dist/ it serves itself, or the remote's origin.

const jobsQuery = { function: ['product-management'], sort: ['date-posted'] };
/**
 * @param {string} name
 * @param {Record<string, string[]>} query
 */
const manifestOf = (name, query) => JSON.stringify({ name, buildId: 'b1', query });

/** @type {string} */
let dir;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-queries-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/**
 * A dist/ folder with an ssr/manifest.json.
 * @param {string} name
 * @param {string} text
 */
function dist(name, text) {
  const root = path.join(dir, name);
  fs.mkdirSync(path.join(root, 'ssr'), { recursive: true });
  fs.writeFileSync(path.join(root, 'ssr/manifest.json'), text);
  return root;
}

/** A fetch that answers from a table of URL -> { status, body }, or refuses; records what it was asked. */
/**
 * @param {Record<string, { status?: number, body: string }>} table
 */
function fakeFetch(table) {
  /** @type {{ url: string, redirect: string | undefined }[]} */
  const asked = [];
  /** @type {typeof globalThis.fetch} */
  const fetch = async (url, options) => {
    asked.push({ url: String(url), redirect: options?.redirect });
    const answer = table[String(url)];
    if (!answer) throw new TypeError('fetch failed: connection refused');
    return new Response(answer.body, { status: answer.status ?? 200 });
  };
  return { fetch, asked };
}

describe('readPageQueries', () => {
  it("reads the dist/ it serves for a remote remotes.json points at its own server, another's origin over HTTP", async () => {
    const roots = { 'jobs-mfe': dist('jobs', manifestOf('jobs', jobsQuery)) };
    const { fetch, asked } = fakeFetch({
      'https://employers.example/ssr/manifest.json': { body: manifestOf('employers', {}) },
    });
    const { queries, warnings } = await readPageQueries({
      remotes: {
        jobs: 'http://localhost:3003/mf-manifest.json',
        employers: 'https://employers.example/mf-manifest.json',
      },
      roots,
      fetch,
    });
    expect(warnings).toEqual([]);
    expect(queries).toEqual({ jobs: jobsQuery, employers: {} });
    // Never a redirect: the manifest comes from the origin in remotes.json or not at all.
    expect(asked).toEqual([{ url: 'https://employers.example/ssr/manifest.json', redirect: 'error' }]);
  });

  it('reads the jobs manifest over HTTP when remotes.json moved it elsewhere, even with a local build', async () => {
    const roots = { 'jobs-mfe': dist('jobs', manifestOf('jobs', { function: ['stale'] })) };
    const { fetch } = fakeFetch({
      'http://jobs.internal:8080/ssr/manifest.json': { body: manifestOf('jobs', jobsQuery) },
    });
    const { queries } = await readPageQueries({
      remotes: { jobs: 'http://jobs.internal:8080/mf-manifest.json' },
      roots,
      fetch,
    });
    expect(queries.jobs).toEqual(jobsQuery);
  });

  it.each([
    ['refused', {}, /connection refused/],
    ['an error status', { 'http://jobs.internal/ssr/manifest.json': { status: 503, body: 'down' } }, /HTTP 503/],
    [
      "another remote's manifest",
      { 'http://jobs.internal/ssr/manifest.json': { body: manifestOf('employers', {}) } },
      /remote "employers"/,
    ],
    [
      'parameters that are not slugs',
      { 'http://jobs.internal/ssr/manifest.json': { body: manifestOf('jobs', { function: ['a|b'] }) } },
      /not a slug/,
    ],
  ])(
    'configures a page as one without parameters, with a warning, when its manifest is %s',
    async (_case, table, reason) => {
      const { fetch } = fakeFetch(table);
      const { queries, warnings } = await readPageQueries({
        remotes: { jobs: 'http://jobs.internal/mf-manifest.json' },
        fetch,
      });
      expect(queries.jobs).toEqual({});
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(reason);
      expect(warnings[0]).toContain('/featured-jobs');
    },
  );
});

describe('renderNginxConfig', () => {
  it('maps the raw query with the shared patterns, short capture names, and no HTML for a query only decoding reads', () => {
    const remotes = { jobs: 'http://127.0.0.1:3003/mf-manifest.json' };
    const config = renderNginxConfig({ remotes, prefix: dir, queries: { jobs: jobsQuery } });
    expect(config).toMatch(/"~\(\^\|&\)function=\(\?<(ngtm\d_0)>product-management\)\(&\|\$\)" \$\1;/);
    expect(config).toMatch(/if \(\$nativegtm_jobs_undecidable\) \{\s+return 204;/);
    expect(config).toContain('proxy_pass_request_headers off;');
    expect(config).toContain('server 127.0.0.1:3003 max_fails=0;');
    expect(() =>
      renderNginxConfig(
        /** @type {Parameters<typeof renderNginxConfig>[0]} */ (/** @type {unknown} */ ({ remotes, prefix: dir })),
      ),
    ).toThrow(/generateNginxConfig/);
  });
});
