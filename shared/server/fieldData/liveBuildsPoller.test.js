// Every remote's live build, read from its ssr/manifest.json where remotes.json says it is: what each process that takes
// beacons labels them with, whichever pages it composed.
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { createRemotesFile } = require('../remotesFile');
const { pollLiveBuilds } = require('./liveBuildsPoller');

/** What each remote's server answers for ssr/manifest.json: a status and a body. */
/** @type {Record<string, { status: number, body: string }>} */
let answers = {};
/**
 * @param {string} name
 * @param {string} buildId
 */
const manifest = (name, buildId) => ({ status: 200, body: JSON.stringify({ name, buildId, query: {} }) });
const first = () => ({
  jobs: manifest('jobs', 'aaaa'),
  employers: manifest('employers', 'bbbb'),
  candidates: manifest('candidates', 'cccc'),
});

/** @type {http.Server} */
let server;
let origin = '';
/** @type {string} */
let folder;

beforeAll(async () => {
  // One server for every remote, each in its own folder, as remotes.json points at them.
  server = http.createServer((req, res) => {
    const remote = /^\/(\w+)\/ssr\/manifest\.json$/.exec(req.url ?? '')?.[1] ?? '';
    const answer = answers[remote] ?? { status: 404, body: 'not found' };
    res.statusCode = answer.status;
    res.end(answer.body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  origin = `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}`;
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-live-builds-'));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(folder, { recursive: true, force: true });
});

/**
 * A poller over a remotes.json listing jobs, employers and candidates on the test server.
 * @param {number} [intervalMs]
 */
function poller(intervalMs) {
  const file = path.join(folder, 'remotes.json');
  const remotes = ['jobs', 'employers', 'candidates'].map((name) => [name, `${origin}/${name}/mf-manifest.json`]);
  fs.writeFileSync(file, JSON.stringify(Object.fromEntries(remotes)));
  return pollLiveBuilds({ remotes: createRemotesFile(file), intervalMs });
}

describe("every remote's live build", () => {
  it('is read from each remote, before any document of its page is composed', async () => {
    answers = first();
    const builds = poller();
    try {
      await builds.refresh();
      expect(Object.fromEntries(builds.liveBuilds())).toEqual({ jobs: 'aaaa', employers: 'bbbb', candidates: 'cccc' });
    } finally {
      builds.stop();
    }
  });

  it("follows a redeploy, keeps a remote's last build while it fails, and never takes another remote's manifest", async () => {
    answers = first();
    const builds = poller();
    try {
      await builds.refresh();
      answers = {
        jobs: manifest('jobs', 'dddd'),
        employers: { status: 502, body: 'bad gateway' },
        candidates: manifest('jobs', 'eeee'),
      };
      await builds.refresh();
      expect(Object.fromEntries(builds.liveBuilds())).toEqual({ jobs: 'dddd', employers: 'bbbb', candidates: 'cccc' });
    } finally {
      builds.stop();
    }
  });

  it('is read again in the background, with no request asking for it', async () => {
    answers = first();
    const builds = poller(20);
    try {
      await builds.refresh();
      answers = { ...first(), jobs: manifest('jobs', 'ffff') };
      const deadline = Date.now() + 5000;
      while (builds.liveBuilds().get('jobs') !== 'ffff' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(builds.liveBuilds().get('jobs')).toBe('ffff');
    } finally {
      builds.stop();
    }
  });
});
