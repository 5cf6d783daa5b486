/** @jest-environment node */
// The deploy API on a folder store, as a team's pipeline reaches it: what each credential may do, every hostile input
// refused before anything is stored, and the audit naming who did what from where.
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { gunzipSync, gzipSync } = require('node:zlib');
const fc = require('fast-check');
const { ARCHIVE_SHA256_HEADER, deployPaths } = require('@nativegtm/contract/deployApi');
const { bodyWrapperStart } = require('@nativegtm/contract/fragments');
const { captureLogs } = require('@nativegtm/server/observability/logCapture');
const { packRelease } = require('@nativegtm/store/releaseArchive');
const { archiveOf } = require('@nativegtm/store/testing/archives');
const { fakeBuild, removeFakeBuilds } = require('@nativegtm/store/testing/fakeBuild');
const { openFolderStore } = require('@nativegtm/store/folderStore');
const { metadataCheck } = require('@nativegtm/store/releaseFiles');
const { startDeployApi } = require('./deployServer');
const { testApiConfig } = require('./testing/apiConfig');
const { makeToken } = require('./tokens/deployTokens');
const { folderTokenStore } = require('./tokens/tokenStore');

jest.setTimeout(30_000);

/** @type {string} */
let storeDir;
/** @type {Awaited<ReturnType<typeof startDeployApi>>} */
let api;
/** @type {ReturnType<typeof captureLogs>} */
let logs;
/** @type {ReturnType<typeof folderTokenStore>} */
let tokens;
/** The time the API's clock says: tests move it to expire a token. */
let now = new Date('2026-12-01T12:00:00Z');

const MAX_BYTES = 256 * 1024;
const MAX_ENTRIES = 40;

/**
 * A token made for `remote` and `actions`, stored as the operator's command stores it.
 * @param {string} remote
 * @param {import('@nativegtm/contract/deployApi').DeployAction[]} actions
 * @param {{ team?: string, days?: number }} [options]
 */
async function tokenFor(remote, actions, { team = remote, days = 30 } = {}) {
  const made = makeToken({
    remote,
    actions,
    team,
    expires: new Date(now.getTime() + days * 86_400_000),
    createdBy: 'operator@test',
    now,
  });
  await tokens.add(made.record);
  return made;
}

/**
 * A request to the API.
 * @param {string} pathname
 * @param {{ method?: string, token?: string, body?: Buffer | string, headers?: Record<string, string> }} [options]
 */
async function call(pathname, { method = 'GET', token, body, headers = {} } = {}) {
  const response = await fetch(`http://127.0.0.1:${api.port}${pathname}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body,
  });
  /** @type {any} */
  const answer = await response.json();
  return { status: response.status, body: answer };
}

/** @param {Buffer} bytes */
const sha256Of = (bytes) => createHash('sha256').update(bytes).digest('hex');

/**
 * Publishes the archive `bytes` with `token`, naming its sha256 (or `sha256`).
 * @param {string} remote
 * @param {string} token
 * @param {Buffer} bytes
 * @param {{ sha256?: string, headers?: Record<string, string> }} [options]
 */
const publish = (remote, token, bytes, { sha256 = sha256Of(bytes), headers = {} } = {}) =>
  call(deployPaths.releases(remote), {
    method: 'POST',
    token,
    body: bytes,
    headers: { [ARCHIVE_SHA256_HEADER]: sha256, 'content-type': 'application/gzip', ...headers },
  });

/** What is in the store's remote folder: nothing stored means none of it. */
const stored = (/** @type {string} */ remote) =>
  fs.existsSync(path.join(storeDir, remote, 'records')) ? fs.readdirSync(path.join(storeDir, remote, 'records')) : [];

beforeEach(async () => {
  storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-api-store-'));
  tokens = folderTokenStore(storeDir);
  logs = captureLogs();
  now = new Date('2026-12-01T12:00:00Z');
  api = await startDeployApi(
    testApiConfig({
      storeDir,
      DEPLOY_MAX_ARCHIVE_BYTES: MAX_BYTES,
      DEPLOY_MAX_ARCHIVE_ENTRIES: MAX_ENTRIES,
      LOG_LEVEL: 'info',
    }),
    { logger: logs.logger, now: () => now },
  );
});

afterEach(async () => {
  await api.close();
  fs.rmSync(storeDir, { recursive: true, force: true });
  removeFakeBuilds();
});

describe('a team token', () => {
  it('publishes, promotes and rolls back its own remote, and the audit names it and its network', async () => {
    const { token, record } = await tokenFor('jobs', ['publish', 'promote', 'skip-gate', 'rollback']);
    const a = await packRelease(fakeBuild({ buildId: 'a', chunk: 'a.0123456789.js' }));
    const b = await packRelease(fakeBuild({ buildId: 'b', chunk: 'b.0123456789.js' }));
    const first = await publish('jobs', token, a, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(first).toMatchObject({ status: 201, body: { existed: false, sha256: sha256Of(a) } });
    // The same archive again: the same release, nothing published.
    expect(await publish('jobs', token, a)).toEqual({
      status: 200,
      body: { ...first.body, existed: true },
    });
    const second = (await publish('jobs', token, b)).body.id;
    for (const id of [first.body.id, second]) {
      const promoted = await call(deployPaths.promote('jobs', id), {
        method: 'POST',
        token,
        body: JSON.stringify({ skipGate: true }),
      });
      expect(promoted).toMatchObject({ status: 200, body: { changed: true, gate: { skipped: true } } });
    }
    expect(await call(deployPaths.rollback('jobs'), { method: 'POST', token })).toEqual({
      status: 200,
      body: { id: first.body.id, from: second },
    });

    const { body } = await call(deployPaths.releases('jobs'), { token });
    expect(
      body.releases.map((/** @type {{ id: string, live: boolean }} */ release) => [release.id, release.live]),
    ).toEqual([
      [first.body.id, true],
      [second, false],
    ]);
    const who = { by: `token ${record.id} (team jobs)`, kind: 'token', token: record.id, team: 'jobs' };
    expect(
      body.audit.map((/** @type {{ action: string, actor: object }} */ entry) => [entry.action, entry.actor]),
    ).toEqual([
      // X-Forwarded-For from a trusted proxy (here, loopback) names the client.
      [`release jobs ${first.body.id}`, { ...who, network: '203.0.113.9' }],
      [`release jobs ${second}`, { ...who, network: '127.0.0.1' }],
      [`promote jobs ${first.body.id}`, { ...who, network: '127.0.0.1' }],
      [`promote jobs ${second}`, { ...who, network: '127.0.0.1' }],
      [`rollback jobs`, { ...who, network: '127.0.0.1' }],
    ]);
    expect(body.releases[0].by).toBe(who.by);
  });

  it('is refused on another remote (403), and nothing changes', async () => {
    const { token, record } = await tokenFor('jobs', ['publish', 'promote', 'skip-gate', 'rollback', 'prune']);
    const build = await packRelease(fakeBuild({ remote: 'candidates', buildId: 'c' }));
    expect(await publish('candidates', token, build)).toEqual({
      status: 403,
      body: { error: `token ${record.id} may not publish candidates (it reaches no action of candidates)` },
    });
    for (const pathname of [deployPaths.rollback('candidates'), deployPaths.prune('candidates')]) {
      expect((await call(pathname, { method: 'POST', token })).status).toBe(403);
    }
    expect((await call(deployPaths.releases('candidates'), { token })).status).toBe(403);
    expect(stored('candidates')).toEqual([]);
    expect(fs.existsSync(path.join(storeDir, 'candidates'))).toBe(false);
  });

  it('may do only the actions it names: skipping the gate and previewing a failed release are their own', async () => {
    const { token, record } = await tokenFor('jobs', ['publish', 'promote', 'preview']);
    const { body } = await publish('jobs', token, await packRelease(fakeBuild()));
    const skip = await call(deployPaths.promote('jobs', body.id), {
      method: 'POST',
      token,
      body: JSON.stringify({ skipGate: true }),
    });
    expect(skip).toEqual({
      status: 403,
      body: { error: `token ${record.id} may not skip-gate jobs (it may publish, promote, preview)` },
    });
    const failed = await call(deployPaths.preview('jobs', body.id), {
      method: 'POST',
      token,
      body: JSON.stringify({ allowFailed: true }),
    });
    expect(failed.status).toBe(403);
    expect((await call(deployPaths.rollback('jobs'), { method: 'POST', token })).status).toBe(403);
    expect(fs.existsSync(path.join(storeDir, 'jobs', 'live'))).toBe(false);
  });

  it('is refused (401) once revoked, from the next request on, and once expired', async () => {
    const { token, record } = await tokenFor('jobs', ['publish'], { days: 1 });
    const build = await packRelease(fakeBuild());
    expect((await call(deployPaths.releases('jobs'), { token })).status).toBe(200);
    await tokens.revoke(record.id, now);
    expect(await publish('jobs', token, build)).toEqual({
      status: 401,
      body: { error: `token ${record.id} was revoked at ${now.toISOString()}` },
    });
    const other = await tokenFor('jobs', ['publish'], { days: 1 });
    now = new Date(now.getTime() + 2 * 86_400_000);
    expect(await publish('jobs', other.token, build)).toMatchObject({
      status: 401,
      body: { error: expect.stringMatching(/^token [0-9a-f]{12} expired at /) },
    });
    expect(stored('jobs')).toEqual([]);
  });
});

describe('a credential that is not one', () => {
  it('is refused (401) whatever it is, and never appears in a log', async () => {
    const { token } = await tokenFor('jobs', ['publish']);
    const forged = `${token.slice(0, -4)}AAAA`;
    for (const authorization of [
      undefined,
      `Bearer ${forged}`,
      'Bearer nope',
      'Basic dXNlcjpwYXNz',
      `Bearer ${'x'.repeat(9000)}`,
    ]) {
      const response = await fetch(`http://127.0.0.1:${api.port}${deployPaths.releases('jobs')}`, {
        headers: authorization ? { authorization } : {},
      });
      expect(response.status).toBe(401);
    }
    await call(deployPaths.releases('jobs'), { token });
    const logged = JSON.stringify(logs.lines);
    expect(logged).not.toContain(token.slice(17));
    expect(logged).not.toContain(forged.slice(17));
  });

  it('is limited per network: past the failures a minute allows, it is refused 429 and a right one still taken', async () => {
    const { token } = await tokenFor('jobs', ['publish']);
    const revoked = await tokenFor('jobs', ['publish']);
    await tokens.revoke(revoked.record.id, now);
    const fromNetwork = (/** @type {string} */ address, /** @type {string} */ credential) =>
      call(deployPaths.releases('jobs'), { token: credential, headers: { 'x-forwarded-for': address } });
    for (let guess = 0; guess < 10; guess += 1) {
      expect((await fromNetwork(`198.51.100.${guess}`, `ngd_${'0'.repeat(12)}_${'A'.repeat(43)}`)).status).toBe(401);
    }
    // The same /24: a wrong one is refused without why.
    expect(await fromNetwork('198.51.100.200', revoked.token)).toEqual({
      status: 429,
      body: { error: expect.stringMatching(/^too many wrong credentials from your network; try again in \d+ s$/) },
    });
    // A right one, another pipeline's on that network (a CI provider's shared range), is taken all the same, and
    // counts for nothing.
    for (const address of ['198.51.100.201', '198.51.100.202']) {
      expect((await fromNetwork(address, token)).status).toBe(200);
    }
    expect((await fromNetwork('198.51.100.203', revoked.token)).status).toBe(429);
    // Another network is not held back by it.
    expect(await fromNetwork('192.0.2.1', revoked.token)).toEqual({
      status: 401,
      body: { error: `token ${revoked.record.id} was revoked at ${now.toISOString()}` },
    });
  });
});

describe('a published archive', () => {
  /** @type {string} */
  let token;
  beforeEach(async () => {
    ({ token } = await tokenFor('jobs', ['publish']));
  });

  const file = (/** @type {string} */ name, body = 'x') => ({ name, body });
  it.each([
    ['climbs out with ..', [file('../outside.js')], /climbs out of the folder/],
    ['is an absolute path', [file('/etc/cron.d/evil')], /is an absolute path/],
    ['is a symbolic link', [{ name: 'passwd', type: 'symlink', linkname: '/etc/passwd' }], /is a symlink, not a file/],
    ['is a hard link', [file('a.js'), { name: 'b.js', type: 'link', linkname: 'a.js' }], /is a link, not a file/],
    ['is a device', [{ name: 'null', type: 'character-device', devmajor: 1, devminor: 3 }], /is a character-device/],
    [
      'has too many entries',
      Array.from({ length: MAX_ENTRIES + 1 }, (_, index) => file(`f${index}.js`)),
      /more than 40 entries/,
    ],
  ])('is refused (400) when an entry %s, and nothing is stored', async (_, entries, reason) => {
    const response = await publish('jobs', token, await archiveOf(entries));
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(reason);
    expect(stored('jobs')).toEqual([]);
  });

  it('is refused (413) past the byte limit, unread when it says its length', async () => {
    const big = Buffer.alloc(MAX_BYTES + 1, 1);
    expect(await publish('jobs', token, big)).toEqual({
      status: 413,
      body: { error: `the archive passes the limit of ${MAX_BYTES} bytes` },
    });
    // A small archive of a huge file (a gzip bomb): refused as it unpacks.
    const bomb = await archiveOf([file('huge.js', 'x'.repeat(MAX_BYTES + 1))]);
    expect(bomb.length).toBeLessThan(MAX_BYTES);
    expect((await publish('jobs', token, bomb)).status).toBe(413);
    // A build followed by zeros, which are no file's: inflated all the same, so counted.
    const build = gunzipSync(await packRelease(fakeBuild()));
    expect(await publish('jobs', token, gzipSync(Buffer.concat([build, Buffer.alloc(MAX_BYTES)])))).toEqual({
      status: 413,
      body: { error: `the archive unpacks to more than ${MAX_BYTES} bytes` },
    });
    expect(stored('jobs')).toEqual([]);
  });

  it('is refused when its sha256 is not the one named, or none is named', async () => {
    const bytes = await packRelease(fakeBuild());
    const response = await publish('jobs', token, bytes, { sha256: '0'.repeat(64) });
    expect(response).toEqual({
      status: 400,
      body: { error: `the archive's sha256 is ${sha256Of(bytes)}, not ${'0'.repeat(64)} as it was named` },
    });
    const unnamed = await call(deployPaths.releases('jobs'), { method: 'POST', token, body: bytes });
    expect(unnamed).toEqual({ status: 400, body: { error: `name the archive's sha256 in ${ARCHIVE_SHA256_HEADER}` } });
    expect(stored('jobs')).toEqual([]);
  });

  it("is refused when it is another remote's build", async () => {
    const response = await publish('jobs', token, await packRelease(fakeBuild({ remote: 'candidates' })));
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(/is a build of "candidates", not of "jobs"/);
    expect(stored('jobs')).toEqual([]);
  });

  it('is refused when it carries an SSI directive its build does not write, naming it', async () => {
    const dir = fakeBuild();
    fs.writeFileSync(path.join(dir, 'ssr/body/index.html'), '<div><!--# echo var="http_cookie" --></div>');
    const response = await publish('jobs', token, await packRelease(dir));
    expect(response.status).toBe(400);
    expect(response.body.error).toContain('<!--# echo var="http_cookie" -->');
    expect(stored('jobs')).toEqual([]);
  });

  it('leaves nothing behind when cut off half-way', async () => {
    const bytes = await packRelease(fakeBuild());
    const half = bytes.subarray(0, Math.floor(bytes.length / 2));
    // The API's own scratch folders, watched: other tests on this machine unpack uploads into folders of that name.
    const made = jest.spyOn(fs, 'mkdtempSync');
    try {
      const response = await publish('jobs', token, half, { sha256: sha256Of(bytes) });
      expect(response.status).toBe(400);
      expect(stored('jobs')).toEqual([]);
      const scratches = made.mock.results
        .map((result) => String(result.value))
        .filter((folder) => path.basename(folder).startsWith('nativegtm-deploy-'));
      expect(scratches).toHaveLength(1);
      expect(scratches.filter((folder) => fs.existsSync(folder))).toEqual([]);
    } finally {
      made.mockRestore();
    }
  });

  it('whatever its bytes, is refused in one line or published whole, and never stores a part', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2048 }), async (bytes) => {
        const response = await publish('jobs', token, Buffer.from(bytes));
        expect(response.status).toBe(400);
        expect(response.body.error).not.toContain('\n');
        expect(stored('jobs')).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });
});

describe('a forged X-Forwarded-For', () => {
  const wrong = `ngd_${'0'.repeat(12)}_${'A'.repeat(43)}`;

  it('names no one behind a proxy that appends the address it saw: the right-most one no trusted proxy added counts', async () => {
    const { token, record } = await tokenFor('jobs', ['publish']);
    // The client sends its own header; the proxy (loopback, trusted) appends the client's address to it.
    const forged = (/** @type {string} */ claimed, /** @type {string} */ credential) =>
      call(deployPaths.releases('jobs'), {
        token: credential,
        headers: { 'x-forwarded-for': `${claimed}, 198.51.100.7` },
      });
    for (let guess = 0; guess < 10; guess += 1) {
      expect((await forged(`192.0.2.${guess}`, wrong)).status).toBe(401);
    }
    // Another network claimed each time, and still its own network's count.
    expect((await forged('203.0.113.1', wrong)).status).toBe(429);
    expect((await forged('127.0.0.1', wrong)).status).toBe(429);
    const published = await publish('jobs', token, await packRelease(fakeBuild()), {
      headers: { 'x-forwarded-for': '203.0.113.1, 198.51.100.7' },
    });
    expect(published.status).toBe(201);
    const { body } = await call(deployPaths.releases('jobs'), { token });
    expect(body.audit.at(-1).actor).toEqual({
      by: `token ${record.id} (team jobs)`,
      kind: 'token',
      token: record.id,
      team: 'jobs',
      network: '198.51.100.7',
    });
  });

  it('is not read from a client the API is not told to trust', async () => {
    const direct = await startDeployApi(
      testApiConfig({ storeDir, DEPLOY_API_PORT: 0, TRUSTED_PROXIES: '192.0.2.254' }),
      { now: () => now },
    );
    try {
      const { token } = await tokenFor('jobs', ['publish']);
      const fromClient = async (/** @type {string} */ claimed, /** @type {string} */ credential) =>
        (
          await fetch(`http://127.0.0.1:${direct.port}${deployPaths.releases('jobs')}`, {
            headers: { authorization: `Bearer ${credential}`, 'x-forwarded-for': claimed },
          })
        ).status;
      for (let guess = 0; guess < 10; guess += 1) expect(await fromClient(`192.0.2.${guess}`, wrong)).toBe(401);
      // Its socket's network (127.0.0.0/24), whatever it claims.
      expect(await fromClient('203.0.113.1', wrong)).toBe(429);
      const archive = await packRelease(fakeBuild());
      const published = await fetch(`http://127.0.0.1:${direct.port}${deployPaths.releases('jobs')}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'x-forwarded-for': '203.0.113.1',
          [ARCHIVE_SHA256_HEADER]: sha256Of(archive),
        },
        body: archive,
      });
      expect(published.status).toBe(201);
      const { body } = await call(deployPaths.releases('jobs'), { token });
      expect(body.audit.at(-1).actor.network).toBe('127.0.0.1');
    } finally {
      await direct.close();
    }
  });
});

describe("the server's paths", () => {
  it("are in no answer: not the store's folder in a listing, a refusal, or a gate's check", async () => {
    const { token } = await tokenFor('jobs', ['publish', 'promote', 'skip-gate']);
    const published = (await publish('jobs', token, await packRelease(fakeBuild({ buildId: 'a' })))).body.id;
    const broken = (await publish('jobs', token, await packRelease(fakeBuild({ buildId: 'b' })))).body.id;
    // A gate run where the store is, as the operator's promote runs it: its check names the release's folder.
    const gated = await openFolderStore(storeDir)
      .remote('jobs')
      .promote(published, {
        gate: async (releaseDir) => {
          const check = metadataCheck(releaseDir, 'candidates');
          return { at: now.toISOString(), passed: check.ok, checks: [check] };
        },
      })
      .catch((/** @type {Error} */ error) => error.message);
    expect(gated).toContain(path.join(storeDir, 'jobs', published));
    // A release whose files went missing on the server.
    fs.rmSync(path.join(storeDir, 'jobs', broken, 'ssr', 'manifest.json'));

    const listed = await call(deployPaths.releases('jobs'), { token });
    expect(listed.body).not.toHaveProperty('where');
    const refused = await call(deployPaths.promote('jobs', broken), {
      method: 'POST',
      token,
      body: JSON.stringify({ skipGate: true }),
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(
      new RegExp(`^release ${broken} of jobs cannot be served: <store>/jobs/${broken} has no server-rendered page`),
    );
    const unknown = await call(deployPaths.promote('jobs', '0123456789abcdef'), { method: 'POST', token });
    expect(unknown.body.error).toBe('there is no release 0123456789abcdef of jobs in <store>/jobs');
    const gate = listed.body.releases.find((/** @type {{ id: string }} */ release) => release.id === published).gate;
    expect(gate.checks[0].detail).toBe(`<store>/jobs/${published} is a build of "jobs", not of "candidates"`);
    for (const answer of [listed, refused, unknown]) {
      expect(JSON.stringify(answer.body)).not.toContain(storeDir);
      expect(JSON.stringify(answer.body)).not.toContain(os.tmpdir());
    }
  });
});

describe("the API's metrics", () => {
  it('count each answer by the action asked and its status, and name no credential', async () => {
    const { token, record } = await tokenFor('jobs', ['publish']);
    await call(deployPaths.releases('jobs'), { token });
    await call(deployPaths.rollback('jobs'), { method: 'POST', token });
    await call(deployPaths.releases('jobs'), { token: `${token.slice(0, -4)}AAAA` });
    const text = await (await fetch(api.metricsUrl)).text();
    expect(text).toMatch(/^nativegtm_deploy_requests_total\{action="read",status="200"\} 1$/m);
    expect(text).toMatch(/^nativegtm_deploy_requests_total\{action="rollback",status="403"\} 1$/m);
    expect(text).toMatch(/^nativegtm_deploy_requests_total\{action="read",status="401"\} 1$/m);
    expect(text).not.toContain(record.id);
    expect(text).not.toContain(token.slice(17));
  });
});

describe('a request that is not one', () => {
  it('gets a one-line JSON refusal for what does not exist, and for a body that is not JSON', async () => {
    const { token } = await tokenFor('jobs', ['promote']);
    expect(await call('/v1/remotes/nope/releases', { token })).toEqual({
      status: 404,
      body: { error: 'there is no remote "nope"' },
    });
    expect(await call('/v2/anything', { token })).toEqual({
      status: 404,
      body: { error: 'there is nothing at /v2/anything' },
    });
    expect((await call(deployPaths.rollback('jobs'), { token })).status).toBe(405);
    const promote = deployPaths.promote('jobs', '0123456789abcdef');
    expect(await call(promote, { method: 'POST', token, body: '{not json' })).toEqual({
      status: 400,
      body: { error: "the request's body is not JSON" },
    });
    expect(await call(deployPaths.promote('jobs', '..%2f..'), { method: 'POST', token })).toMatchObject({
      status: 404,
    });
  });

  it('whatever its path and method, is answered with a status and JSON, never a crash', async () => {
    const { token } = await tokenFor('jobs', ['publish', 'promote', 'rollback', 'prune', 'preview']);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'DELETE', 'PUT'),
        fc.array(fc.oneof(fc.constantFrom('v1', 'remotes', 'jobs', 'releases', 'promote', 'canary'), fc.webSegment()), {
          maxLength: 6,
        }),
        fc.option(fc.string({ maxLength: 200 }), { nil: undefined }),
        async (method, segments, body) => {
          const response = await fetch(`http://127.0.0.1:${api.port}/${segments.join('/')}`, {
            method,
            headers: { authorization: `Bearer ${token}` },
            body: method === 'GET' ? undefined : body,
          });
          expect(response.status).toBeLessThan(500);
          expect(typeof (await response.json())).toBe('object');
        },
      ),
      { numRuns: 80 },
    );
    // Nothing was published by it.
    expect(stored('jobs')).toEqual([]);
  });
});

describe('a gate that could not judge the release', () => {
  it('is answered 503 with its line, marked for the command to exit 3 on, and nothing is recorded', async () => {
    // The API's machine without a browser: whatever the gate's site composes (this checkout built or not), the page
    // cannot be judged in one, and the release's own HTML gives nothing to fail.
    await api.close();
    api = await startDeployApi(testApiConfig({ storeDir, CHROME_PATH: path.join(storeDir, 'no-chromium') }), {
      logger: logs.logger,
      now: () => now,
    });
    const { token } = await tokenFor('jobs', ['publish', 'promote']);
    const built = fakeBuild({
      buildId: 'unjudged',
      body: `${bodyWrapperStart('jobs', 'unjudged')}data-variant="index"><h1>Jobs</h1></div>`,
    });
    const { id } = (await publish('jobs', token, await packRelease(built))).body;
    expect(await call(deployPaths.promote('jobs', id), { method: 'POST', token })).toEqual({
      status: 503,
      body: { error: expect.stringMatching(/^the gate could not judge: /), undecided: true },
    });
    const { body } = await call(deployPaths.releases('jobs'), { token });
    expect(body.releases).toEqual([expect.objectContaining({ id, live: false })]);
    expect(body.releases[0].gate).toBeUndefined();
    expect(body.audit.map((/** @type {{ action: string }} */ entry) => entry.action)).toEqual([`release jobs ${id}`]);
  });
});
