const cookie = require('cookie');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { BUCKET_COOKIE, sideOf } = require('@nativegtm/contract/canaryBuckets');
const { storeLayout } = require('@nativegtm/store/layout');
const { thisCommand, writeCanary } = require('@nativegtm/store/canaryInStore');
const { createCanaries } = require('./canaries');

/** @type {string} */
let store;
beforeEach(() => {
  store = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-canaries-'));
});
afterEach(() => fs.rmSync(store, { recursive: true, force: true }));

/**
 * @param {string} remote
 * @param {number} share
 */
function startCanary(remote, share) {
  const layout = storeLayout(store, remote);
  fs.mkdirSync(layout.dir, { recursive: true });
  const at = '2026-11-26T10:00:00.000Z';
  writeCanary(layout, remote, {
    v: 1,
    id: '0123456789abcdef',
    share,
    steps: [share, 100],
    startedAt: at,
    stepStartedAt: at,
    settings: { stepTimeMs: 1000, minViews: 1, maxWaitMs: 1000 },
    verdicts: [],
    command: thisCommand(),
  });
}

/** @param {string} [cookie] */
/** A request's cookies, parsed as the shell's server parses them. */
const request = (header = '') => cookie.parse(header);

/**
 * The first bucket on `side` of the remote's canary at `share`.
 * @param {string} remote
 * @param {number} share
 * @param {'canary' | 'control' | 'outside'} side
 */
const bucketOn = (remote, share, side) => [...Array(100).keys()].find((b) => sideOf(b, remote, share) === side);

describe("a request's canary sides", () => {
  it('puts a bucketed visitor on their side of each running canary, and no one else', () => {
    startCanary('jobs', 25);
    const { sidesOf } = createCanaries({ storeDir: store, remoteNames: ['jobs', 'employers'] });
    const canary = bucketOn('jobs', 25, 'canary');
    expect(sidesOf(request(`${BUCKET_COOKIE}=${canary}`))).toEqual([
      { remote: 'jobs', side: 'canary', id: '0123456789abcdef' },
    ]);
    expect(sidesOf(request(`a=b; ${BUCKET_COOKIE}=${bucketOn('jobs', 25, 'control')}`))).toEqual([
      expect.objectContaining({ remote: 'jobs', side: 'control' }),
    ]);
    expect(sidesOf(request(`${BUCKET_COOKIE}=${bucketOn('jobs', 25, 'outside')}`))).toEqual([]);
    expect(sidesOf(request())).toEqual([]);
    for (const junk of ['100', '-1', '07', 'x', '']) expect(sidesOf(request(`${BUCKET_COOKIE}=${junk}`))).toEqual([]);
  });

  it('tells of a canary state it cannot read, and puts no one in it', () => {
    const layout = storeLayout(store, 'jobs');
    fs.mkdirSync(path.join(layout.dir, 'canaries', '1'), { recursive: true });
    fs.writeFileSync(path.join(layout.dir, 'canaries', '1', 'canary.json'), '{ not json');
    fs.symlinkSync('canaries/1', layout.canary);
    const problems = /** @type {string[]} */ ([]);
    const { sidesOf } = createCanaries({
      storeDir: store,
      remoteNames: ['jobs'],
      onProblem: (remote, problem) => problems.push(`${remote}: ${problem}`),
    });
    expect(sidesOf(request(`${BUCKET_COOKIE}=1`))).toEqual([]);
    expect(problems).toEqual(["jobs: the canary's state is not JSON"]);
  });
});
