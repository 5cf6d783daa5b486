/** @jest-environment node */
// The rendered configuration: what it must say, and that nginx itself accepts it.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { pages } = require('@nativegtm/contract/pages');
const { routePattern } = require('@nativegtm/contract/routes');
const { robotsTxt, siteHead, siteOrigin, sitemapXml } = require('@nativegtm/server/siteMeta');
const { KEEP_ALIVE_MS } = require('@nativegtm/server/httpServer');
const { documentsPlan, renderNginxConfig } = require('./renderConfig');

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((file) => fs.existsSync(file));

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-render-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const remotes = {
  candidates: 'http://127.0.0.1:3001/mf-manifest.json',
  employers: 'http://127.0.0.1:3002/mf-manifest.json',
  jobs: 'https://jobs.example/team/mf-manifest.json',
  comingSoon: 'http://127.0.0.1:3004/mf-manifest.json',
};
const queries = { jobs: { function: ['sales', 'marketing'] } };

/**
 * The text a fixed-text location answers, as nginx reads its single-quoted literal.
 * @param {string} config
 * @param {string} location
 */
function served(config, location) {
  const start = config.indexOf(`location = ${location} {`);
  const literal = /return 200 '((?:[^'\\\n]|\\.)*)';\n/.exec(config.slice(start))?.[1];
  if (start === -1 || literal === undefined) throw new Error(`no text for ${location}`);
  return literal.replace(/\\(.)/g, (_, char) => (char === 'n' ? '\n' : char));
}

/** @param {Partial<Parameters<typeof renderNginxConfig>[0]>} [options] */
function render(options = {}) {
  return renderNginxConfig({
    remotes,
    queries,
    prefix: dir,
    origin: 'https://nativegtm.example',
    fragmentTimeoutMs: 400,
    ...options,
  });
}

describe('the rendered nginx configuration', () => {
  const config = render();

  it('has one document location per page route, matched by the route rule', () => {
    for (const page of pages) {
      const location = `location ~* "${routePattern(page.route)}" {`;
      expect(config.split(location)).toHaveLength(2);
      expect(config).toContain(`set $page ${page.remote};`);
    }
  });

  it("fetches each remote's head and page HTML within the fragment timeout, from its own origin", () => {
    for (const remote of Object.keys(remotes)) {
      expect(config).toContain(`location = /_compose/page-head/${remote} {`);
      expect(config).toContain(`location = /_compose/page-body/${remote} {`);
    }
    expect(config).toContain('proxy_pass "http://nativegtm_fragment_relay/jobs/ssr/head.html$nativegtm_no_args";');
    expect(config).toMatch(/error_page 300 301 .* 599 =200 \/_compose\/empty;/);
    // The relay, on a socket in the prefix: each remote's files from its origin and path, within the timeout.
    const relay = config.slice(config.indexOf('# The fragment relay'));
    expect(relay).toContain(`listen "unix:${path.join(dir, 'fragment-relay.sock')}";`);
    expect(relay).toMatch(/location \/jobs\/ \{[^}]*proxy_read_timeout 400ms;[^}]*proxy_ssl_verify on;/);
    expect(relay).toContain('proxy_pass "https://nativegtm_jobs/team/";');
    expect(relay).toContain('proxy_pass "http://nativegtm_candidates/";');
  });

  it("caches every include in one shared cache, keyed by the remote's file, and lets no remote set its lifetime", () => {
    expect(config).toContain(
      `proxy_cache_path "${path.join(dir, 'fragments')}" levels=1 keys_zone=nativegtm_fragments:1m`,
    );
    expect(config).toContain('proxy_cache_key "/jobs/ssr/head.html";');
    expect(config).toContain('proxy_cache_key "/jobs/ssr/body/${nativegtm_jobs_0}.html";');
    const includes = config.split('location = /_compose/page-').slice(1);
    expect(includes).toHaveLength(2 * Object.keys(remotes).length + 2);
    for (const include of includes.filter(
      (text) => !text.startsWith('head/not-found') && !text.startsWith('body/not-found'),
    )) {
      const settings = include.slice(0, include.indexOf('proxy_pass '));
      expect(settings).toContain('proxy_cache nativegtm_fragments;');
      expect(settings).toContain('proxy_cache_background_update on;');
      // The relay's timeout and 100 ms for its answer.
      expect(settings).toContain('proxy_read_timeout 500ms;');
    }
    expect(config).toContain('add_header Cache-Control "stale-while-revalidate=1" always;');
    expect(config).toContain('add_header X-Accel-Expires "@$nativegtm_second" always;');
    expect(config).toContain('map $msec $nativegtm_second {');
    expect(config).toContain('proxy_hide_header Cache-Control;');
    expect(config).toContain('worker_processes auto;');
  });

  it("picks the jobs page's variant with maps over its raw query", () => {
    expect(config).toContain('map $args $nativegtm_jobs_0 {');
    expect(config).toMatch(/"~\(\^\|&\)function=\(\?<ngtm\d_0>sales\|marketing\)\(&\|\$\)" \$ngtm\d_0;/);
    expect(config).toContain('map $args $nativegtm_jobs_undecidable {');
    expect(config).toContain(
      'proxy_pass "http://nativegtm_fragment_relay/jobs/ssr/body/${nativegtm_jobs_0}.html$nativegtm_no_args";',
    );
  });

  it("allows exactly the remotes' origins in the documents' CSP", () => {
    const csp = /add_header Content-Security-Policy "([^"]*)" always;/.exec(config)?.[1] ?? '';
    expect(csp).toContain(
      "script-src 'self' http://127.0.0.1:3001 http://127.0.0.1:3002 http://127.0.0.1:3004 https://jobs.example;",
    );
  });

  it('answers robots.txt and the sitemap on the public origin, and caches hashed files for a year', () => {
    expect(config).toContain('Sitemap: https://nativegtm.example/sitemap.xml');
    expect(config).toContain('<loc>https://nativegtm.example/featured-jobs</loc>');
    expect(config).toContain('location ~ "\\.[0-9a-f]{10}\\.(js|css)$" {');
    expect(config).toContain('add_header Cache-Control "public, max-age=31536000, immutable" always;');
  });

  it('serves the same robots.txt, sitemap and page heads as the built-in server, not indented with the blocks', () => {
    const origin = siteOrigin('https://nativegtm.example');
    expect(served(config, '/robots.txt')).toBe(robotsTxt(origin));
    expect(served(config, '/sitemap.xml')).toBe(
      sitemapXml(
        origin,
        pages.map((page) => page.route),
      ),
    );
    for (const page of pages) {
      expect(served(config, `/_compose/site-head/${page.remote}`)).toBe(siteHead(origin, page.route));
    }
  });

  it('tells the browser the sample rate in the page heads when it is not 1, and passes beacons to the collector', () => {
    const sampled = render({ sampleRate: 0.25, collectorPort: 9999 });
    const origin = siteOrigin('https://nativegtm.example');
    expect(served(sampled, '/_compose/site-head/jobs')).toBe(siteHead(origin, '/featured-jobs', { sampleRate: 0.25 }));
    expect(served(sampled, '/_compose/site-head/jobs')).toContain(
      '<meta name="nativegtm-rum-sample-rate" content="0.25" />',
    );
    expect(served(config, '/_compose/site-head/jobs')).not.toContain('nativegtm-rum-sample-rate');
    expect(sampled).toContain('server 127.0.0.1:9999;');
    expect(sampled).toMatch(/location = \/_field-data \{[^}]*client_max_body_size 8k;/);
    expect(sampled).toMatch(/location = \/_field-data \{[\s\S]*?proxy_set_header Cookie "";/);
    // The visitor's address goes to the collector, for its network (TRUSTED_PROXIES applies there); never kept.
    for (const location of ['/_field-data', '/_field-data/token']) {
      const block = sampled.split(`location = ${location} {`)[1]?.split(/\n\s*location /)[0] ?? '';
      expect(block).toContain('proxy_set_header X-Real-IP $remote_addr;');
      expect(block).toContain('proxy_set_header X-Forwarded-For $http_x_forwarded_for;');
    }
  });

  it("gives up every upstream's idle connections before the site's servers would close them", () => {
    const sampled = render({ collectorPort: 9999 });
    const upstreams = [...sampled.matchAll(/upstream (\S+) \{([^}]*)\}/g)];
    expect(upstreams.map(([, name]) => name)).toEqual(expect.arrayContaining(['nativegtm_collector']));
    for (const [, name, body] of upstreams) {
      const seconds = Number(/keepalive_timeout (\d+)s;/.exec(body ?? '')?.[1]);
      expect(`${name} idle ${seconds * 1000 < KEEP_ALIVE_MS ? 'within' : 'past'} the servers'`).toBe(
        `${name} idle within the servers'`,
      );
    }
  });

  it('answers /healthz with "ok" on every server, never cached', () => {
    const relay = config.indexOf('# The fragment relay');
    const servers = config
      .slice(0, relay)
      .split(/^\s*server \{$/m)
      .slice(1);
    expect(servers).toHaveLength(1 + pages.length);
    for (const server of servers) {
      expect(server).toContain('location = /healthz {');
      expect(served(server, '/healthz')).toBe('ok\n');
    }
    expect(config).toContain('add_header Cache-Control "no-store" always;');
  });

  it('takes browser reports on the shell with the built-in limits: 16 KB, a burst of 20, one a second', () => {
    const location = config.slice(config.indexOf('location = /_reports {'));
    expect(location).toMatch(
      /^location = \/_reports \{\s+client_max_body_size 16k;\s+limit_req zone=nativegtm_reports burst=20 nodelay;/,
    );
    expect(config).toContain('limit_req_zone $binary_remote_addr zone=nativegtm_reports:1m rate=1r/s;');
    expect(config).toContain('add_header Reporting-Endpoints "csp=\\"/_reports\\"" always;');
  });

  it('leaves a remote missing from remotes.json out, and its origin out of the CSP', () => {
    const { jobs, ...others } = remotes;
    const without = render({ remotes: others });
    expect(without).not.toContain('/_compose/page-body/jobs');
    expect(without).not.toContain(new URL(jobs).origin);
  });

  it('serves releases only with a store: the live link, the kept hashed files, then dist/', () => {
    expect(render()).not.toContain('/live');
    const config = render({ releasesDir: '/srv/releases' });
    expect(config).toContain('root "/srv/releases/candidates";');
    expect(config).toContain('try_files /live$uri /assets$uri @dist;');
    expect(config).toContain('location ~ "^/releases/[0-9a-f]{16}/"');
    // A previewing browser's or a canary visitor's includes are fetched from that release, kept apart in the cache,
    // and not shared.
    expect(config).toContain('proxy_cache_key "/jobs/${nativegtm_release_path_jobs}ssr/head.html"');
    expect(config).toMatch(/map \$nativegtm_personal \$nativegtm_page_cache \{\n\s+"" "public, max-age=0/);
    // Each remote's release, by the shared rule (@nativegtm/contract/releaseChoice), for every override:preview:side.
    const releasePath = config.slice(config.indexOf('$nativegtm_release_path_jobs {'));
    const line = (/** @type {string} */ key) => new RegExp(`\\n\\s+"${key}" ([^;]+);`).exec(releasePath)?.[1];
    expect(line('::canary')).toBe('$nativegtm_canary_path_jobs');
    expect(line('::control')).toBe('""');
    expect(line(':jobs:canary')).toBe('$nativegtm_preview_path_jobs');
    expect(line(':employers:canary')).toBe('""');
    expect(line('employers::canary')).toBe('$nativegtm_canary_path_jobs');
    expect(line('jobs:jobs:')).toBe('""');
    // A preview counts only for a release in the store; the file test is made only for a well-formed preview cookie.
    expect(config).toMatch(
      /if \(\$nativegtm_preview_cookie_remote = ""\) \{\n\s+break;\n\s+\}\n\s+if \(-f \$nativegtm_preview_manifest\) \{/,
    );
    expect(config).toContain('default "/srv/releases/.no-preview";');
  });

  it("asks the collector for /remotes.json with nginx's own choice of releases, and nothing the browser sent", () => {
    /** @param {string} config */
    const location = (config) => {
      const start = config.indexOf('location = /remotes.json {');
      return config.slice(start, config.indexOf('location @remotes_unavailable', start));
    };
    const served = location(render({ releasesDir: '/srv/releases' }));
    expect(served).toContain('proxy_pass_request_headers off;');
    expect(served).toContain('proxy_pass http://nativegtm_collector;');
    expect(served).toContain('proxy_set_header x-nativegtm-personal $nativegtm_personal;');
    expect(served).toContain('proxy_set_header x-nativegtm-override-origin $nativegtm_override_origin;');
    expect(served).toContain('proxy_set_header x-nativegtm-release-comingsoon ${nativegtm_release_path_comingSoon};');
    // The collector says whether the answer is everyone's or the visitor's alone.
    expect(served).not.toContain('Cache-Control');
    // Without a store, nothing is chosen: everyone gets the same.
    expect(location(render())).not.toContain('x-nativegtm-');
    expect(location(render())).toContain('proxy_pass_request_headers off;');
  });

  it("puts each request on its side of each running canary by a map nginx loads, and lists the canaries' shares", () => {
    const config = render({ releasesDir: '/srv/releases' });
    // Read from the canary's files when nginx loads the configuration: no file test and no include per request (the
    // only file tests are of a preview's release: whether a preview cookie's is in the store, and a preview's start's).
    expect(config.match(/if \(!?-f [^)]*\)/g)).toEqual([
      'if (-f $nativegtm_preview_manifest)',
      expect.stringMatching(
        /^if \(!-f "\/srv\/releases\/\$nativegtm_preview_remote\/\$nativegtm_preview_id\/mf-manifest.json"\)$/,
      ),
      expect.stringMatching(/\/gates\/\$nativegtm_preview_id\.failed"\)$/),
      expect.stringMatching(/\/previews\/\$nativegtm_preview_id\.\$nativegtm_preview_mark"\)$/),
    ]);
    expect(config).not.toContain('/_nativegtm_canary/');
    expect(config).toMatch(
      /map \$cookie_nativegtm_bucket \$nativegtm_side_jobs \{\n\s+default "";\n\s+include "\/srv\/releases\/jobs\/nginx-canary\/sides\*\.map";/,
    );
    expect(config).toMatch(
      /map listed \$nativegtm_listed_jobs \{\n\s+default "";\n\s+include "\/srv\/releases\/jobs\/nginx-canary\/listed\*\.map";/,
    );
    expect(config).toContain(
      '<meta name="nativegtm-canaries" content="$nativegtm_listed_candidates $nativegtm_listed_employers $nativegtm_listed_jobs $nativegtm_listed_comingSoon" />',
    );
    // Its visitors load the release by its own path, which does not depend on the canary's folder.
    expect(config).toMatch(
      /map listed \$nativegtm_canary_path_jobs \{\n\s+default "";\n\s+include "\/srv\/releases\/jobs\/nginx-canary\/release\*\.map";/,
    );
    // The token of a document names whom it is for, by the shared rule: the page's own remote's side first.
    const cohorts = config.slice(config.indexOf('$nativegtm_cohort_jobs {'));
    const cohort = (/** @type {string} */ key) =>
      new RegExp(`\\n\\s+"${key.replace(/[\^[\]+]/g, '\\$&')}" ([^;]+);`).exec(cohorts)?.[1];
    // Keys: override:preview:candidates:employers:jobs:comingSoon.
    expect(cohort('::canary::control:')).toBe('"control:jobs"');
    expect(cohort('::canary:::')).toBe('"canary:candidates"');
    expect(cohort('~^[^:]+:')).toBe('"override"');
    expect(cohort('~^:[^:]+:')).toBe('"preview"');
    expect(config).toContain('?cohort=$nativegtm_cohort_jobs" -->');
    expect(render()).not.toContain('nativegtm_side_');
  });

  it('sends a document for everyone from the file the collector composed, else composes it per request', () => {
    const documentsDir = path.join(dir, 'documents');
    const files = render({ documentsDir, releasesDir: path.join(dir, 'store') });
    // The page's file by the variant key nginx computes; a personal document or an undecidable query has none.
    expect(files).toContain('map "$nativegtm_personal:$nativegtm_jobs_undecidable" $nativegtm_document_jobs {');
    // In the folder of the canaries nginx lists, which the collector names from the ones its document lists, in the
    // plan's order: nginx sends a document only while it lists the same canaries.
    const listed = documentsPlan({ remotes, releasesDir: 'store' }).canaryRemotes?.map(
      (remote) => `\${nativegtm_listed_${remote}}`,
    );
    expect(listed).toHaveLength(4);
    expect(files).toContain(`":0" "/jobs/${listed?.join(',')}/\${nativegtm_jobs_0}.html";`);
    expect(documentsPlan({ remotes }).canaryRemotes).toBeUndefined();
    expect(files).toContain('map "$nativegtm_personal" $nativegtm_document_employers {');
    expect(files).toContain('map "$nativegtm_personal" $nativegtm_document_not_found {');
    expect(files).toContain('try_files "$nativegtm_document_jobs" @compose_jobs;');
    expect(files).toContain('try_files "$nativegtm_document_not_found" @compose_not_found;');
    expect(files).toContain(`root "${documentsDir}";`);
    expect(files).toContain('location @compose_jobs {');
    // Without releases no document is personal: a page without query parameters always has its one file.
    const dist = render({ documentsDir });
    expect(dist).toContain('try_files "/employers/index.html" @compose_employers;');
    expect(dist).not.toContain('$nativegtm_personal');
    // The .br files only with the module; without a documents folder, every document is composed per request.
    expect(files).not.toContain('brotli_static');
    const brotli = render({ documentsDir, brotliModule: '/usr/lib/nginx/modules/brotli.so' });
    expect(brotli.startsWith('# Generated')).toBe(true);
    expect(brotli).toContain('load_module "/usr/lib/nginx/modules/brotli.so";');
    expect(brotli).toContain('brotli_static on;');
    expect(config).not.toContain('try_files "$nativegtm_document');
    expect(config).not.toContain('@compose_');
  });

  it.each([
    [undefined, undefined],
    ['store', undefined],
    ['store', 'documents'],
  ])('is accepted by nginx -t (release store: %s, documents: %s)', (store, documents) => {
    if (!NGINX) return;
    const roots = Object.fromEntries(
      ['shell', ...pages.map((page) => page.package)].map((name) => {
        const root = path.join(dir, 'roots', name);
        fs.mkdirSync(root, { recursive: true });
        return [name, root];
      }),
    );
    // Local upstreams only: nginx -t resolves upstream host names, and this machine may have no DNS.
    const local = { ...remotes, jobs: 'http://127.0.0.1:3003/mf-manifest.json' };
    const file = path.join(dir, 'nginx.conf');
    fs.writeFileSync(
      file,
      render({
        remotes: local,
        roots,
        releasesDir: store && path.join(dir, store),
        documentsDir: documents && path.join(dir, documents),
      }),
    );
    const result = spawnSync(
      /** @type {string} */ (NGINX),
      ['-t', '-p', dir, '-e', path.join(dir, 'error.log'), '-c', file],
      { encoding: 'utf8' },
    );
    expect({ status: result.status, stderr: result.stderr }).toEqual({
      status: 0,
      stderr: expect.stringContaining('test is successful'),
    });
  });
});
