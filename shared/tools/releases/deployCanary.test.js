/** @jest-environment node */
// A command following the canary the deploy API drives: across a restart of the API (the run carried on in a new
// epoch, read from its first line), and not forever when no API carries it on.
const http = require('node:http');
const { followCanary } = require('./deployCanary');

const ID = '0123456789abcdef';
const env = { NATIVEGTM_DEPLOY_TOKEN: 'ngd_test' };
/** A canary as the API started it: 2 s steps, so that the follower looks every 100 ms; a lease of 200 ms. */
const state = /** @type {import('@nativegtm/store/canaryInStore').CanaryState} */ ({
  v: 1,
  id: ID,
  share: 50,
  steps: [50, 100],
  startedAt: new Date().toISOString(),
  stepStartedAt: new Date().toISOString(),
  settings: { stepTimeMs: 2000, minViews: 0, maxWaitMs: 0 },
  verdicts: [],
  command: { host: 'api', pid: 1 },
  lease: { epoch: 1, ttlMs: 1000, expiresAt: new Date().toISOString() },
});
const ended = { id: ID, outcome: 'promoted', reason: 'every step passed (50 %)', verdicts: [{ share: 50 }] };

/** @type {http.Server} */
let server;
/** @type {string[]} */
let asked;

/**
 * A fake API answering the follower's reads in turn, the last one again and again.
 * @param {{ status?: number, body: unknown }[]} answers
 */
async function fakeApi(answers) {
  asked = [];
  let index = 0;
  server = http.createServer((request, response) => {
    asked.push(/** @type {string} */ (request.url));
    const { status = 200, body } = answers[Math.min(index, answers.length - 1)] ?? { body: null };
    index += 1;
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  return `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}`;
}
afterEach(() => new Promise((resolve) => server.close(resolve)));

/** @param {{ epoch: number, lines: string[], next: number, ended?: object }} run */
const runAnswer = (run) => ({ body: { run: { id: ID, ...run } } });

describe('following a canary through the deploy API', () => {
  it('waits while the API restarts, then follows the run that carried the canary on from its first line', async () => {
    const to = await fakeApi([
      runAnswer({ epoch: 1, lines: ['50 %  step one'], next: 1 }),
      // Its proxy, with nothing behind it; then the API back, before it carried the canary on.
      { status: 503, body: { error: 'no server is available' } },
      { body: { run: null } },
      // The run that carried it on, asked from the follower's place in the old one; then from its first line.
      runAnswer({ epoch: 2, lines: ['50 %  judged'], next: 2 }),
      runAnswer({ epoch: 2, lines: ['jobs: canary … carried on at 50 %', '50 %  judged'], next: 2 }),
      runAnswer({ epoch: 2, lines: ['100 %  promoted'], next: 3, ended }),
    ]);
    /** @type {string[]} */
    const printed = [];
    const end = await followCanary('jobs', to, { env }).follow(state, (line) => printed.push(line));
    expect(end).toEqual(ended);
    expect(printed).toEqual([
      '50 %  step one',
      '  the deploy API does not drive it now (restarting?): waiting up to 1m 01s for it to carry it on',
      'jobs: canary … carried on at 50 %',
      '50 %  judged',
      '100 %  promoted',
    ]);
    // The new run read again from its first line, once its epoch showed.
    expect(asked.map((url) => new URL(url, to).searchParams.get('from'))).toEqual(['0', '1', '1', '1', '0', '2']);
  });

  it('gives up, pointing at --status, when no API carries it on within its lease and the wait', async () => {
    const to = await fakeApi([runAnswer({ epoch: 1, lines: [], next: 0 }), { body: { run: null } }]);
    const started = Date.now();
    await expect(followCanary('jobs', to, { env, carryOnWaitMs: 300 }).follow(state, () => {})).rejects.toThrow(
      `the deploy API no longer drives the canary of release ${ID} (it restarted?): ` +
        `npm run canary -- jobs --status --to ${to} says where it stands`,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
  });

  it('stops at once on a refusal that is not the API being away (a revoked token)', async () => {
    const to = await fakeApi([
      runAnswer({ epoch: 1, lines: [], next: 0 }),
      { status: 401, body: { error: 'token 3f9a2c1d0b7e was revoked' } },
    ]);
    await expect(followCanary('jobs', to, { env }).follow(state, () => {})).rejects.toThrow(
      'token 3f9a2c1d0b7e was revoked',
    );
    expect(asked).toHaveLength(2);
  });
});
