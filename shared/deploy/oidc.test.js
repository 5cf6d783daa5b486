/** @jest-environment node */
// Trusted publishing against a real issuer on loopback (discovery document and keys, as GitHub's and GitLab's are
// served): a job's identity token grants what the operator's rules say, and only that; a forged, expired or
// wrongly-addressed one is refused; the issuer's rotated keys are followed.
//
// The API runs as its own process, as an operator runs it: jose is ESM-only, which jest's module system does not load,
// and the tests sign their tokens with node:crypto.
const { spawn } = require('node:child_process');
const { createHash, generateKeyPairSync, sign } = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { deployPaths, ARCHIVE_SHA256_HEADER } = require('@nativegtm/contract/deployApi');
const { repoRoot } = require('@nativegtm/server/deployables');
const { packRelease } = require('@nativegtm/store/releaseArchive');
const { fakeBuild, removeFakeBuilds } = require('@nativegtm/store/testing/fakeBuild');
const { parseTrust } = require('./oidc');

jest.setTimeout(30_000);

const AUDIENCE = 'https://deploy.nativegtm.example';
const COMMIT = '0123456789abcdef0123456789abcdef01234567';

/** The issuer: its keys (the one it signs with now first) and how often its key set was fetched. */
const issuer = {
  url: '',
  /** @type {SigningKey[]} */
  keys: [],
  fetched: 0,
  /** @type {http.Server | undefined} */
  server: undefined,
};

/** @typedef {{ kid: string, privateKey: import('node:crypto').KeyObject, jwk: object }} SigningKey */

/** @returns {SigningKey} */
function newKey(/** @type {string} */ kid) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { kid, privateKey, jwk: { ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' } };
}

const base64url = (/** @type {unknown} */ value) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * A job's identity token, as GitHub Actions signs it (these claims are GitHub's), changed by `claims`.
 * @param {Record<string, unknown>} [claims]
 * @param {{ key?: SigningKey, expiresIn?: number, iss?: string, aud?: string }} [options] expiresIn: seconds
 */
function jobToken(claims = {}, { key = issuer.keys[0], expiresIn = 300, iss = issuer.url, aud = AUDIENCE } = {}) {
  const signing = /** @type {SigningKey} */ (key);
  const now = Math.floor(Date.now() / 1000);
  const payload = {
    iss,
    aud,
    sub: 'repo:acme/site:ref:refs/heads/main',
    repository: 'acme/site',
    ref: 'refs/heads/main',
    sha: COMMIT,
    iat: now,
    exp: now + expiresIn,
    ...claims,
  };
  const signed = `${base64url({ alg: 'RS256', typ: 'JWT', kid: signing.kid })}.${base64url(payload)}`;
  return `${signed}.${sign('sha256', Buffer.from(signed), signing.privateKey).toString('base64url')}`;
}

/** @type {string} */
let storeDir;
/** The API's process and port. */
/** @type {{ port: number, child?: import('node:child_process').ChildProcess }} */
const api = { port: 0 };

beforeAll(async () => {
  issuer.keys = [newKey('key-1')];
  issuer.server = http.createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/openid-configuration') {
      res.end(JSON.stringify({ issuer: issuer.url, jwks_uri: `${issuer.url}/keys` }));
    } else if (req.url === '/keys') {
      issuer.fetched += 1;
      res.end(JSON.stringify({ keys: issuer.keys.map((key) => key.jwk) }));
    } else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  await new Promise((resolve) => issuer.server?.listen(0, '127.0.0.1', () => resolve(undefined)));
  issuer.url = `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (issuer.server.address()).port}`;

  storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-api-store-'));
  const trustFile = path.join(storeDir, 'trust.json');
  fs.writeFileSync(
    trustFile,
    JSON.stringify({
      issuers: [
        {
          issuer: issuer.url,
          audience: AUDIENCE,
          rules: [
            // Any branch of the repository may publish and preview; only its protected main branch may promote.
            { claims: { repository: 'acme/site' }, remote: 'jobs', can: ['publish', 'preview'] },
            {
              claims: { repository: 'acme/site', ref: 'refs/heads/main' },
              remote: 'jobs',
              can: ['promote', 'skip-gate'],
            },
            // By the repository's id, as its provider's API prints it: whatever it is called now.
            { claims: { repository_id: 74, repository_owner_id: 65 }, remote: 'candidates', can: ['publish'] },
            // As GitLab's tokens name a job's branch: only the protected main branch, not a protected tag named main.
            {
              claims: { project_path: 'acme/site', ref: 'main', ref_type: 'branch', ref_protected: 'true' },
              remote: 'candidates',
              can: ['promote'],
            },
          ],
        },
      ],
    }),
  );
  const child = spawn(process.execPath, ['shared/deploy/commands/serve.js'], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH,
      DEPLOY_API_PORT: '0',
      DEPLOY_METRICS_PORT: '0',
      DEPLOY_AUTH_FAILURES: '100',
      DEPLOY_TRUST_FILE: trustFile,
      // A rotation is followed at the next token, not 30 s later.
      DEPLOY_JWKS_COOLDOWN_MS: '0',
      RELEASES_DIR: storeDir,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  api.child = child;
  api.port = await new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk) => {
      output += chunk;
      const listening = /"port":(\d+)[^\n]*"msg":"deploy API listening"/.exec(output);
      if (listening) resolve(Number(listening[1]));
    });
    child.once('exit', (code) => reject(new Error(`the deploy API exited ${code}: ${output}`)));
  });
});

afterAll(async () => {
  const exited = new Promise((resolve) =>
    api.child?.exitCode === null ? api.child.once('exit', resolve) : resolve(0),
  );
  api.child?.kill('SIGTERM');
  await exited;
  issuer.server?.closeAllConnections();
  issuer.server?.close();
  fs.rmSync(storeDir, { recursive: true, force: true });
  removeFakeBuilds();
});

/**
 * @param {string} pathname
 * @param {string} credential
 * @param {{ method?: string, body?: Uint8Array<ArrayBuffer> | string, headers?: Record<string, string> }} [options]
 */
async function call(pathname, credential, { method = 'GET', body, headers = {} } = {}) {
  const response = await fetch(`http://127.0.0.1:${api.port}${pathname}`, {
    method,
    headers: { authorization: `Bearer ${credential}`, ...headers },
    body,
  });
  /** @type {any} */
  const answer = await response.json();
  return { status: response.status, body: answer };
}

/** Publishes a fake build of jobs with `credential`. */
async function publish(/** @type {string} */ credential, /** @type {string} */ buildId) {
  const archive = await packRelease(fakeBuild({ buildId, chunk: `${buildId}.0123456789.js` }));
  return call(deployPaths.releases('jobs'), credential, {
    method: 'POST',
    body: new Uint8Array(archive),
    headers: { [ARCHIVE_SHA256_HEADER]: createHash('sha256').update(archive).digest('hex') },
  });
}

it("grants a job what the rules say of its claims, and records the commit from the token's sha", async () => {
  const main = jobToken();
  const published = await publish(main, 'a');
  expect(published.status).toBe(201);
  const promoted = await call(deployPaths.promote('jobs', published.body.id), main, {
    method: 'POST',
    body: JSON.stringify({ skipGate: true }),
  });
  expect(promoted).toMatchObject({ status: 200, body: { changed: true } });

  const { body } = await call(deployPaths.releases('jobs'), main);
  expect(body.releases[0]).toMatchObject({ commit: COMMIT, by: 'oidc repo:acme/site:ref:refs/heads/main' });
  expect(body.audit.at(-1).actor).toEqual({
    by: 'oidc repo:acme/site:ref:refs/heads/main',
    kind: 'oidc',
    subject: 'repo:acme/site:ref:refs/heads/main',
    repository: 'acme/site',
    commit: COMMIT,
    network: '127.0.0.1',
  });
});

it('refuses (403) what its rules do not grant: a branch that is not protected promotes nothing', async () => {
  const branch = jobToken({ ref: 'refs/heads/feature', sub: 'repo:acme/site:ref:refs/heads/feature' });
  const published = await publish(branch, 'b');
  expect(published.status).toBe(201);
  expect(await call(deployPaths.promote('jobs', published.body.id), branch, { method: 'POST' })).toEqual({
    status: 403,
    body: {
      error: 'the OIDC identity repo:acme/site:ref:refs/heads/feature may not promote jobs (it may publish, preview)',
    },
  });
  const other = jobToken({ repository: 'evil/fork', sub: 'repo:evil/fork:ref:refs/heads/main' });
  expect((await publish(other, 'c')).status).toBe(403);
  expect((await call(deployPaths.releases('candidates'), jobToken())).status).toBe(403);
});

it('tells a protected branch from a protected tag of the same name, as GitLab names both', async () => {
  const gitlab = (/** @type {string} */ refType) =>
    jobToken({
      sub: `project_path:acme/site:ref_type:${refType}:ref:main`,
      repository: undefined,
      project_path: 'acme/site',
      ref: 'main',
      ref_type: refType,
      ref_protected: 'true',
    });
  expect((await call(deployPaths.releases('candidates'), gitlab('branch'))).status).toBe(200);
  expect(await call(deployPaths.releases('candidates'), gitlab('tag'))).toEqual({
    status: 403,
    body: {
      error:
        'the OIDC identity project_path:acme/site:ref_type:tag:ref:main may not read candidates (it reaches no action of candidates)',
    },
  });
});

it("grants a rule on a repository's id to it under a new name, and not to another one under its old name", async () => {
  const repository = (/** @type {string} */ name, /** @type {unknown} */ id) =>
    jobToken({
      sub: `repo:${name}:ref:refs/heads/main`,
      repository: name,
      repository_id: id,
      repository_owner_id: '65',
    });
  const mayRead = async (/** @type {string} */ token) => (await call(deployPaths.releases('candidates'), token)).status;
  expect(await mayRead(repository('acme/site', '74'))).toBe(200);
  expect(await mayRead(repository('acme/site-renamed', '74'))).toBe(200);
  // An issuer that writes ids as numbers.
  expect(await mayRead(repository('acme/site', 74))).toBe(200);
  // Deleted and made again under the same name, or a fork named so: another id.
  expect(await mayRead(repository('acme/site', '9001'))).toBe(403);
  // A string is compared as it is.
  expect(await mayRead(repository('acme/site', '74.0'))).toBe(403);
});

it('refuses (401) a forged, expired, wrongly-addressed or foreign token', async () => {
  const stranger = newKey('key-1');
  const refusals = await Promise.all(
    [
      jobToken({}, { key: stranger }),
      jobToken({}, { expiresIn: -120 }),
      jobToken({}, { aud: 'https://elsewhere.example' }),
      jobToken({}, { iss: 'https://token.actions.githubusercontent.com' }),
    ].map((token) => call(deployPaths.releases('jobs'), token)),
  );
  expect(refusals.map((refusal) => [refusal.status, refusal.body.error])).toEqual([
    [401, "the OIDC token's signature does not verify with its issuer's keys"],
    [401, 'the OIDC token has expired'],
    [401, "the OIDC token's aud claim is not what this API takes"],
    [401, 'the OIDC issuer "https://token.actions.githubusercontent.com" is not trusted here'],
  ]);
  // A token whose payload was changed after it was signed.
  const [header, , signature] = jobToken().split('.');
  const payload = Buffer.from(JSON.stringify({ iss: issuer.url, aud: AUDIENCE, sub: 'x', repository: 'acme/site' }));
  const tampered = `${header}.${payload.toString('base64url')}.${signature}`;
  expect((await call(deployPaths.releases('jobs'), tampered)).status).toBe(401);
});

it("follows the issuer's key rotation: a token of a new key is verified once the keys are fetched again", async () => {
  const before = issuer.fetched;
  const rotated = newKey('key-2');
  issuer.keys = [rotated, ...issuer.keys];
  const token = jobToken({}, { key: rotated });
  expect((await call(deployPaths.releases('jobs'), token)).status).toBe(200);
  expect(issuer.fetched).toBe(before + 1);
  // Known keys are not fetched again.
  await call(deployPaths.releases('jobs'), token);
  expect(issuer.fetched).toBe(before + 1);
});

describe('the trust file', () => {
  const rules = [{ claims: { repository: 'acme/site' }, remote: 'jobs', can: ['publish'] }];
  it.each([
    ['a plain-http issuer not on loopback', { issuer: 'http://issuer.example', audience: 'a', rules }, /must be https/],
    [
      'a rule with no claim',
      { issuer: 'https://i.example', audience: 'a', rules: [{ ...rules[0], claims: {} }] },
      /claims/,
    ],
    [
      'an unknown remote',
      { issuer: 'https://i.example', audience: 'a', rules: [{ ...rules[0], remote: 'x' }] },
      /not a remote/,
    ],
    [
      'an unknown action',
      { issuer: 'https://i.example', audience: 'a', rules: [{ ...rules[0], can: ['all'] }] },
      /not an action/,
    ],
    ['no audience', { issuer: 'https://i.example', rules }, /audience is missing/],
    [
      "a short ref without its ref_type (GitLab's, the same for a branch and a tag)",
      {
        issuer: 'https://gitlab.example',
        audience: 'a',
        rules: [{ ...rules[0], claims: { project_path: 'acme/site', ref: 'main', ref_protected: 'true' } }],
      },
      'issuers[0].rules[0].claims names ref "main" but not ref_type: a branch and a tag can both be "main"; add ' +
        '"ref_type": "branch" (or "tag")',
    ],
  ])('refuses %s', (_, entry, reason) => {
    expect(() => parseTrust(JSON.stringify({ issuers: [entry] }))).toThrow(reason);
  });

  it("keeps an id's number as its digits, and refuses any other number", () => {
    const ids = (/** @type {unknown} */ value) =>
      parseTrust(
        JSON.stringify({
          issuers: [
            {
              issuer: 'https://gitlab.example',
              audience: 'a',
              rules: [{ ...rules[0], claims: { project_id: value } }],
            },
          ],
        }),
      )[0]?.rules[0]?.claims;
    expect(ids(4242)).toEqual({ project_id: '4242' });
    expect(ids('4242')).toEqual({ project_id: '4242' });
    for (const wrong of [4.5, -1, true, null, '']) {
      expect(() => ids(wrong)).toThrow(
        "claims must name at least one claim and its value (a string, or an id's number)",
      );
    }
  });

  it('refuses an issuer named twice, whose second entry would never apply', () => {
    const entry = { issuer: 'https://gitlab.example', audience: 'a', rules };
    const other = { issuer: 'https://token.actions.githubusercontent.com', audience: 'a', rules };
    expect(() => parseTrust(JSON.stringify({ issuers: [entry, other, { ...entry, audience: 'b' }] }))).toThrow(
      'issuers[2].issuer "https://gitlab.example" is issuers[0]\'s too: put all its rules in one entry',
    );
  });
});
