/** @jest-environment node */
// Overrides on the built-in shell server, with a counting stand-in for the jobs remote and for a dev server: who gets
// what, and that the server never asks the dev server (nor the remote) for the overridden page.
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { overridePath } = require('@nativegtm/contract/overrides');
const { parseOverrideOrigins } = require('@nativegtm/contract/overrides');
const { createShellHandler } = require('../shellServer');

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-overrides-'));
fs.writeFileSync(
  path.join(root, 'index.html'),
  '<!doctype html><head><!--# include virtual="/_compose/page-head/$page" --></head>' +
    '<body><!--# include virtual="/_compose/page-body/$page?$args" --></body>',
);

/** @type {http.Server[]} */
const servers = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  fs.rmSync(root, { recursive: true, force: true });
});

/**
 * A server on a free port; its origin as `host` names it.
 * @param {import('node:http').RequestListener} handler
 * @param {string} [host]
 */
async function serve(handler, host = '127.0.0.1') {
  const server = http.createServer(handler);
  servers.push(server);
  await /** @type {Promise<void>} */ (new Promise((resolve) => server.listen(0, '127.0.0.1', resolve)));
  return `http://${host}:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}`;
}

/** Requests each stand-in received. */
const asked = { remote: 0, dev: 0 };
/** @type {string} */
let site;
/** @type {string} */
let devOrigin;
/** @type {string} */
let remoteOrigin;

/**
 * A composing shell server for the jobs page, with these OVERRIDE_ORIGINS.
 * @param {string} [overrideOrigins]
 */
async function shell(overrideOrigins) {
  const remotesFile = path.join(root, 'remotes.json');
  fs.writeFileSync(remotesFile, JSON.stringify({ jobs: `${remoteOrigin}/mf-manifest.json` }));
  const handler = createShellHandler({
    root,
    remotesFile,
    compose: {
      routes: [{ route: '/featured-jobs', remote: 'jobs' }],
      origin: 'http://localhost:3000',
      overrideOrigins: overrideOrigins === undefined ? undefined : parseOverrideOrigins(overrideOrigins),
    },
  });
  return serve(handler);
}

beforeAll(async () => {
  remoteOrigin = await serve((_req, res) => {
    asked.remote += 1;
    res.statusCode = 404;
    res.end();
  });
  devOrigin = await serve((_req, res) => {
    asked.dev += 1;
    res.end();
  }, 'localhost');
  site = await shell();
});

/**
 * Starts an override; the cookies it sets, as a browser sends them back.
 * @param {string} origin
 * @param {string} [at] the site
 * @param {Record<string, string>} [headers]
 */
async function start(origin, at = site, headers = {}) {
  const response = await fetch(`${at}${overridePath('jobs', origin)}`, { redirect: 'manual', headers });
  const cookies = response.headers.getSetCookie().map((line) => line.split(';')[0]);
  return { response, cookie: cookies.join('; ') };
}

test('starts on the remote page for an allowed origin, with an HttpOnly cookie and a notice', async () => {
  const { response } = await start(devOrigin);
  expect([response.status, response.headers.get('location')]).toEqual([303, '/featured-jobs']);
  expect(response.headers.getSetCookie()).toEqual([
    `nativegtm_override=jobs@${devOrigin}; Max-Age=28800; Path=/; HttpOnly; SameSite=Lax`,
    `nativegtm_override_notice=jobs@${devOrigin}; Max-Age=28800; Path=/; SameSite=Lax`,
  ]);
  expect(response.headers.get('cache-control')).toBe('private, no-store');
});

test("serves that browser's documents private, with the policy widened for the dev server, fetching nothing", async () => {
  const { cookie } = await start(devOrigin);
  const before = { ...asked };
  const page = await fetch(`${site}/featured-jobs`, { headers: { cookie } });
  expect(page.status).toBe(200);
  expect(asked).toEqual({ remote: before.remote, dev: before.dev });
  expect(page.headers.get('cache-control')).toBe('private, no-store');
  expect(page.headers.get('x-robots-tag')).toBe('noindex');
  expect(page.headers.get('server-timing')).toBe(
    `fragment;desc="jobs: rendered in the browser from ${devOrigin}";dur=0`,
  );
  const policy = page.headers.get('content-security-policy');
  const live = (await fetch(`${site}/featured-jobs`)).headers.get('content-security-policy');
  // (A visitor's document does ask the remote: the stand-in counts what the server fetches.)
  expect(asked.remote).toBeGreaterThan(before.remote);
  expect(live).not.toContain(devOrigin.slice('http://'.length));
  expect(policy).toBe(
    /** @type {string} */ (live)
      .replaceAll(`${remoteOrigin};`, `${remoteOrigin} ${devOrigin};`)
      .replace(/(connect-src [^;]*)/, `$1 ${devOrigin.replace('http', 'ws')}`)
      .replace(" 'allow-duplicates'", " nativegtm-dev-overlay 'allow-duplicates'"),
  );
  const remotes = await fetch(`${site}/remotes.json`, { headers: { cookie } });
  expect(await remotes.json()).toEqual({ jobs: { url: `${devOrigin}/mf-manifest.json`, devServer: true } });
  expect(remotes.headers.get('cache-control')).toBe('private, no-store');
  expect(await (await fetch(`${site}/remotes.json`)).json()).toEqual({ jobs: `${remoteOrigin}/mf-manifest.json` });
});

test('refuses an origin not allowed, junk, an unknown remote, and everything when off', async () => {
  const refused = await start('http://10.0.0.5:3103');
  expect([refused.response.status, refused.cookie]).toEqual([403, '']);
  expect(await refused.response.text()).toBe(
    'This site does not accept overrides from that origin (OVERRIDE_ORIGINS).\n',
  );
  for (const junk of ['javascript:alert(1)', `${devOrigin}/`, 'http://localhost:80', 'http://localhost:0']) {
    expect([junk, (await start(junk)).response.status]).toEqual([junk, 403]);
  }
  expect((await fetch(`${site}/_override/payments?origin=${devOrigin}`)).status).toBe(404);

  // Only from its URL opened in this browser, or from the site itself: never from another site's link.
  for (const [fetchSite, status] of [
    ['cross-site', 403],
    ['same-site', 403],
    ['none', 303],
    ['same-origin', 303],
  ]) {
    const { response, cookie } = await start(devOrigin, site, { 'Sec-Fetch-Site': String(fetchSite) });
    expect([fetchSite, response.status, cookie !== '']).toEqual([fetchSite, status, status === 303]);
  }

  // A cookie for an origin not allowed (forged, or set before OVERRIDE_ORIGINS changed) counts for nothing.
  const forged = await fetch(`${site}/remotes.json`, {
    headers: { cookie: 'nativegtm_override=jobs@http://10.0.0.5:9' },
  });
  expect(forged.headers.get('cache-control')).toBe('no-cache');

  const off = await shell('off');
  expect((await start(devOrigin, off)).response.status).toBe(403);
  const { cookie } = await start(devOrigin);
  expect((await fetch(`${off}/featured-jobs`, { headers: { cookie } })).headers.get('cache-control')).not.toBe(
    'private, no-store',
  );
});

test('ends, clearing both cookies, on the home page', async () => {
  const response = await fetch(`${site}/_override/end`, { redirect: 'manual' });
  expect([response.status, response.headers.get('location')]).toEqual([303, '/']);
  expect(response.headers.getSetCookie().map((line) => line.split(';').slice(0, 2).join(';'))).toEqual([
    'nativegtm_override=; Max-Age=0',
    'nativegtm_override_notice=; Max-Age=0',
  ]);
});
