/** @jest-environment node */
// The limit on a network's wrong credentials (failureLimit.js), with the tokens in PostgreSQL as on many nodes: each
// lookup is a query, so requests that arrive together are looked up together, and a lookup can fail.
const { deployPaths } = require('@nativegtm/contract/deployApi');
const { openDatabase } = require('@nativegtm/store/postgres/database');
const { startPostgres } = require('@nativegtm/store/testing/postgres');
const { startDeployApi } = require('./deployServer');
const { testApiConfig } = require('./testing/apiConfig');
const { makeToken } = require('./tokens/deployTokens');
const { postgresTokenStore } = require('./tokens/tokenStore');

jest.setTimeout(60_000);

/** A token no one made. */
const WRONG = `ngd_${'0'.repeat(12)}_${'A'.repeat(43)}`;

/** @type {Awaited<ReturnType<typeof startPostgres>>} */
let postgres;
/** @type {Awaited<ReturnType<typeof startDeployApi>>} */
let api;
/** @type {import('./tokens/tokenStore').TokenStore} */
let tokens;

beforeAll(async () => {
  postgres = await startPostgres();
  const databaseUrl = await postgres.migratedDatabase('limit');
  tokens = postgresTokenStore(openDatabase(databaseUrl), 'the database');
  // The bucket is never reached: nothing here is published.
  api = await startDeployApi(
    testApiConfig({ DATABASE_URL: databaseUrl, RELEASES_BUCKET: 's3://unused/limit', DEPLOY_AUTH_FAILURES: 10 }),
  );
});

afterAll(async () => {
  await api?.close();
  await tokens?.close();
  postgres?.remove();
});

/**
 * GET the jobs releases with `token`, from `address` as the proxy in front names it.
 * @param {string} token
 * @param {string} address
 */
async function fromAddress(token, address) {
  const response = await fetch(`http://127.0.0.1:${api.port}${deployPaths.releases('jobs')}`, {
    headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': address },
  });
  /** @type {any} */
  const body = await response.json();
  return { status: response.status, body };
}

it('lets at most the limit of wrong credentials sent at once from one network be answered 401, the rest 429', async () => {
  const answers = await Promise.all(
    Array.from({ length: 30 }, (_, guess) => fromAddress(WRONG, `198.51.100.${guess}`)),
  );
  const statuses = answers.map((answer) => answer.status);
  expect(statuses.filter((status) => status === 401)).toHaveLength(10);
  expect(statuses.filter((status) => status === 429)).toHaveLength(20);
});

it('counts a lookup that fails as a wrong credential, and still takes a right one', async () => {
  const { token, record } = makeToken({
    remote: 'jobs',
    actions: ['publish'],
    team: 'jobs',
    expires: new Date(Date.now() + 86_400_000),
    createdBy: 'operator@test',
  });
  await tokens.add(record);
  postgres.stop();
  try {
    for (let attempt = 0; attempt < 10; attempt += 1) {
      expect((await fromAddress(WRONG, `203.0.113.${attempt}`)).status).toBe(503);
    }
  } finally {
    postgres.start();
  }
  expect(await fromAddress(WRONG, '203.0.113.77')).toMatchObject({
    status: 429,
    body: { error: expect.stringMatching(/^too many wrong credentials from your network; try again in \d+ s$/) },
  });
  expect((await fromAddress(token, '203.0.113.78')).status).toBe(200);
});
