/** @jest-environment node */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { storeLayout } = require('./layout');
const { publishRelease } = require('./publish');
const { liveRelease, readLivePointer, writeLivePointer } = require('./livePointer');
const { fakeBuild, removeFakeBuilds } = require('./testing/fakeBuild');

/** @type {string} */
let store;
beforeEach(() => {
  store = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-store-'));
});
afterEach(() => {
  fs.rmSync(store, { recursive: true, force: true });
  removeFakeBuilds();
});

const source = { commit: null, dirty: false };

describe('the live pointer', () => {
  it('is a link to a release, replaced in one rename', () => {
    const layout = storeLayout(store, 'jobs');
    expect(readLivePointer(layout)).toEqual({});
    const a = publishRelease(layout, 'jobs', fakeBuild(), source).id;
    const b = publishRelease(layout, 'jobs', fakeBuild({ buildId: 'b' }), source).id;
    writeLivePointer(layout, a);
    expect(readLivePointer(layout)).toEqual({ id: a });
    writeLivePointer(layout, b);
    expect(fs.readlinkSync(layout.live)).toBe(b);
    expect(fs.readdirSync(layout.dir).filter((name) => name.startsWith('live.'))).toEqual([]);
  });

  it.each([
    ['names no release id', (/** @type {string} */ live) => fs.symlinkSync('../../etc', live), /not a release id/],
    [
      'names a release whose files are gone',
      (/** @type {string} */ live) => fs.symlinkSync('0123456789abcdef', live),
      /files are missing/,
    ],
    ['is a plain file', (/** @type {string} */ live) => fs.writeFileSync(live, 'garbage'), /not a link/],
  ])('when it %s, servers keep the last good release and say why once', (_, corrupt, problem) => {
    const layout = storeLayout(store, 'jobs');
    const good = publishRelease(layout, 'jobs', fakeBuild(), source).id;
    writeLivePointer(layout, good);
    let time = 0;
    /** @type {string[]} */
    const problems = [];
    const live = liveRelease(layout, {
      now: () => time,
      onProblem: (text, keeping) => problems.push(`${text} → ${keeping}`),
    });
    expect(live()).toBe(good);
    fs.rmSync(layout.live);
    corrupt(layout.live);
    time += 1000;
    expect(live()).toBe(good);
    time += 1000;
    expect(live()).toBe(good);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(problem);
    expect(problems[0]).toContain(`→ ${good}`);
  });

  it('is looked at no more often than its check interval, and tells of each change', () => {
    const layout = storeLayout(store, 'jobs');
    const a = publishRelease(layout, 'jobs', fakeBuild(), source).id;
    let time = 0;
    /** @type {(string | undefined)[]} */
    const changes = [];
    const live = liveRelease(layout, { now: () => time, checkIntervalMs: 200, onChange: (id) => changes.push(id) });
    expect(live()).toBeUndefined();
    writeLivePointer(layout, a);
    time += 100;
    expect(live()).toBeUndefined();
    time += 100;
    expect(live()).toBe(a);
    time += 200;
    expect(live()).toBe(a);
    expect(changes).toEqual([a]);
  });
});
