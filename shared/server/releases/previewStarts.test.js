/** @jest-environment node */
// Starting a preview on the built-in shell server: a link from another site is asked, a post from one refused, a
// release whose gate failed opened only with its mark. A store written by hand, as the commands lay it out.
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { previewPath } = require('@nativegtm/contract/releases');
const { createShellHandler } = require('../shellServer');
const { storeLayout } = require('@nativegtm/store/layout');

/** The integrity the shell's template links its stylesheet with. */
const STYLES_INTEGRITY = `sha384-${'s'.repeat(64)}`;

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-preview-starts-'));
const root = path.join(scratch, 'dist');
const store = path.join(scratch, 'releases');
const jobs = storeLayout(store, 'jobs');
const PASSED = '0123456789abcdef';
const FAILED = 'fedcba9876543210';
const MARK = 'a'.repeat(32);

/** @type {http.Server} */
let server;
/** @type {string} */
let site;

beforeAll(async () => {
  fs.mkdirSync(root);
  fs.writeFileSync(
    path.join(root, 'index.html'),
    `<!doctype html><head><link rel=stylesheet href=/styles.0123456789.css integrity=${STYLES_INTEGRITY}>` +
      `<link rel="stylesheet" href="https://elsewhere.example/x.css" integrity="${STYLES_INTEGRITY}"></head><body></body>`,
  );
  fs.writeFileSync(path.join(root, 'remotes.json'), JSON.stringify({ jobs: 'http://127.0.0.1:9/mf-manifest.json' }));
  for (const id of [PASSED, FAILED]) {
    fs.mkdirSync(jobs.release(id), { recursive: true });
    fs.writeFileSync(path.join(jobs.release(id), 'mf-manifest.json'), '{}');
  }
  fs.mkdirSync(path.dirname(jobs.gateFailed(FAILED)), { recursive: true });
  fs.writeFileSync(jobs.gateFailed(FAILED), '');
  fs.mkdirSync(jobs.previewMarks, { recursive: true });
  fs.writeFileSync(jobs.previewMark(FAILED, MARK), '');
  const handler = createShellHandler({
    root,
    compose: { routes: [{ route: '/featured-jobs', remote: 'jobs' }], origin: 'http://localhost:3000' },
    releasesDir: store,
  });
  server = http.createServer(handler);
  await /** @type {Promise<void>} */ (new Promise((resolve) => server.listen(0, '127.0.0.1', resolve)));
  site = `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(scratch, { recursive: true, force: true });
});

/**
 * @param {string} target
 * @param {{ method?: string, site?: string, origin?: string }} [options] site: Sec-Fetch-Site
 */
async function open(target, { method = 'GET', site: fetchSite, origin } = {}) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (fetchSite) headers['Sec-Fetch-Site'] = fetchSite;
  if (origin) headers.Origin = origin;
  const response = await fetch(`${site}${target}`, { method, headers, redirect: 'manual' });
  return { response, body: await response.text(), cookies: response.headers.getSetCookie() };
}

describe('a preview link', () => {
  it.each(['none', 'same-origin', undefined])(
    'opened by the browser or the site (%s) starts in one step',
    async (from) => {
      const { response, cookies } = await open(previewPath('jobs', PASSED), { site: from });
      expect([response.status, response.headers.get('location')]).toEqual([303, '/featured-jobs']);
      expect(cookies).toEqual([
        `nativegtm_preview=jobs.${PASSED}; Max-Age=3600; Path=/; HttpOnly; SameSite=Lax`,
        `nativegtm_preview_notice=jobs.${PASSED}; Max-Age=3600; Path=/; SameSite=Lax`,
      ]);
    },
  );

  it.each(['cross-site', 'same-site', 'forged'])('from another site (%s) sets no cookie and asks', async (from) => {
    const { response, body, cookies } = await open(previewPath('jobs', PASSED), { site: from });
    expect(response.status).toBe(200);
    expect(cookies).toEqual([]);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    // Never in a frame, where its button could be clicked for the visitor; it posts only to the site.
    const policy = response.headers.get('content-security-policy');
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("form-action 'self'");
    expect(policy).not.toContain('unsafe-inline');
    expect(body).toContain('<h1>Preview jobs release 01234567?</h1>');
    expect(body).toContain(`<form method="post" action="/_preview/jobs/${PASSED}">`);
    expect(body).toContain('<a class="button secondary" href="/featured-jobs">Cancel</a>');
    // The shell's own stylesheet, never one from elsewhere that its template might name.
    expect(body).toContain(
      `<link rel="stylesheet" href="/styles.0123456789.css" integrity="${STYLES_INTEGRITY}" crossorigin="anonymous">`,
    );
    expect(body).not.toContain('elsewhere.example');
    expect(body).not.toContain('FAILED');
  });

  it('starts when the site posts the question back', async () => {
    const { response, cookies } = await open(previewPath('jobs', PASSED), { method: 'POST', site: 'same-origin' });
    expect([response.status, response.headers.get('location')]).toEqual([303, '/featured-jobs']);
    expect(cookies).toHaveLength(2);
  });

  it('refuses a post from another site, with a page and no cookie', async () => {
    const { response, body, cookies } = await open(previewPath('jobs', PASSED), {
      method: 'POST',
      site: 'cross-site',
      origin: 'https://elsewhere.example',
    });
    expect(response.status).toBe(403);
    expect(cookies).toEqual([]);
    expect(body).toContain('<h1>This preview was not opened</h1>');
  });
});

describe('a release whose gate failed', () => {
  it.each([
    ['without a mark', previewPath('jobs', FAILED)],
    ['with a mark the store does not have', previewPath('jobs', FAILED, 'b'.repeat(32))],
  ])('is refused %s, with a page and no cookie', async (_, target) => {
    for (const method of ['GET', 'POST']) {
      const { response, body, cookies } = await open(target, { method, site: 'none' });
      expect(response.status).toBe(403);
      expect(cookies).toEqual([]);
      expect(body).toContain('<h1>This release failed its checks</h1>');
      expect(body).toContain(`npm run preview -- jobs ${FAILED} --allow-failed`);
    }
  });

  it('opens with its mark, and the notice says it FAILED', async () => {
    const { response, cookies } = await open(previewPath('jobs', FAILED, MARK), { site: 'none' });
    expect(response.status).toBe(303);
    expect(cookies).toEqual([
      `nativegtm_preview=jobs.${FAILED}; Max-Age=3600; Path=/; HttpOnly; SameSite=Lax`,
      `nativegtm_preview_notice=jobs.${FAILED}.failed; Max-Age=3600; Path=/; SameSite=Lax`,
    ]);
  });

  it('asks a link with its mark from another site, saying it FAILED', async () => {
    const { response, body, cookies } = await open(previewPath('jobs', FAILED, MARK), { site: 'cross-site' });
    expect([response.status, cookies]).toEqual([200, []]);
    expect(body).toContain('FAILED the gate');
    expect(body).toContain(`action="/_preview/jobs/${FAILED}/${MARK}"`);
  });
});

it.each([
  `/_preview/jobs/${PASSED}/${'A'.repeat(32)}`,
  `/_preview/jobs/${PASSED}/${MARK}/more`,
  `/_preview/jobs/${PASSED}/..%2f..%2fgates`,
  '/_preview/jobs/0000000000000000',
])('answers 404 for %s', async (target) => {
  const { response, cookies } = await open(target, { site: 'none' });
  expect([response.status, cookies]).toEqual([404, []]);
});
