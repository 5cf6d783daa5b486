/** @jest-environment node */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { storeLayout } = require('./layout');
const { promote, rollback, prune, describeReleases } = require('./operations');
const { folderBackend } = require('./folderBackend');
const { readLivePointer } = require('./livePointer');
const { readHistory } = require('./liveHistory');
const { listReleases, readGate } = require('./records');
const { StoreBusyError, STALE_MS } = require('./storeLock');
const { StoreRefusal } = require('./storeRefusal');
const { fakeBuild, removeFakeBuilds } = require('./testing/fakeBuild');

const source = { commit: 'abc', dirty: false };
/** @type {string} */
let store;
/** @type {import('./layout').StoreLayout} */
let layout;
/** @type {import('./storeBackend').StoreBackend} */
let jobs;
beforeEach(() => {
  store = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-store-'));
  layout = storeLayout(store, 'jobs');
  jobs = folderBackend(store, 'jobs');
});
afterEach(() => {
  fs.rmSync(store, { recursive: true, force: true });
  removeFakeBuilds();
});

let clock = 0;
const now = () => new Date(Date.UTC(2026, 0, 1) + (clock += 1000));
/** @param {string} buildId */
const release = async (buildId) =>
  (await jobs.publish(fakeBuild({ buildId, chunk: `${buildId}.0123456789.js` }), source)).id;
const passing = async () => ({ at: now().toISOString(), passed: true, checks: [{ name: 'hydration', ok: true }] });

describe('promote', () => {
  it('makes a release live after its gate, and records both, and who made each change', async () => {
    const a = await release('a');
    const result = await promote(jobs, a, { gate: passing, now });
    expect(result).toMatchObject({ changed: true, from: undefined });
    expect(readLivePointer(layout)).toEqual({ id: a });
    expect(readGate(layout, a)).toMatchObject({ passed: true });
    const by = `${os.userInfo().username}@${os.hostname()}`;
    expect(readHistory(layout)).toEqual([expect.objectContaining({ action: 'promote', id: a, from: null, by })]);
    expect(listReleases(layout)).toEqual([expect.objectContaining({ id: a, by })]);
  });

  it('changes nothing when the gate fails, names the failure and records the release as failed', async () => {
    const a = await release('a');
    const b = await release('b');
    await promote(jobs, a, { gate: passing, now });
    const failing = async () => ({
      at: now().toISOString(),
      passed: false,
      checks: [{ name: 'hydration', ok: false, detail: 'console error: boom' }],
    });
    await expect(promote(jobs, b, { gate: failing, now })).rejects.toThrow(
      /failed the gate[^]*hydration: console error: boom/,
    );
    expect(readLivePointer(layout)).toEqual({ id: a });
    expect(readGate(layout, b)).toMatchObject({ passed: false });
    // What the servers test before they preview it (nginx reads no JSON).
    expect(fs.existsSync(layout.gateFailed(b))).toBe(true);
    expect(fs.existsSync(layout.gateFailed(a))).toBe(false);
    expect((await jobs.read(describeReleases)).releases.map((r) => [r.id, r.live, r.gate?.passed])).toEqual([
      [a, true, true],
      [b, false, false],
    ]);
  });

  it('unmarks a release as failed once its gate passes', async () => {
    const a = await release('a');
    const failing = async () => ({ at: now().toISOString(), passed: false, checks: [] });
    await expect(promote(jobs, a, { gate: failing, now })).rejects.toThrow(/failed the gate/);
    await promote(jobs, a, { gate: passing, now });
    expect(fs.existsSync(layout.gateFailed(a))).toBe(false);
  });

  it('records a skipped gate as skipped', async () => {
    const a = await release('a');
    await promote(jobs, a, { gate: null, now });
    expect(readGate(layout, a)).toMatchObject({ skipped: true });
  });

  it.each([
    ['an unknown id', () => '0123456789abcdef', /no release 0123456789abcdef of jobs/],
    ['an id that is not one', () => '../../etc', /no release/],
  ])('refuses %s', async (_, id, message) => {
    await expect(promote(jobs, id(), { gate: passing, now })).rejects.toThrow(message);
  });

  it('refuses a release whose files are missing, changing nothing', async () => {
    const a = await release('a');
    const b = await release('b');
    await promote(jobs, a, { gate: passing, now });
    fs.chmodSync(layout.release(b), 0o755);
    fs.rmSync(path.join(layout.release(b), 'remoteEntry.js'), { force: true });
    await expect(promote(jobs, b, { gate: passing, now })).rejects.toThrow(/cannot be served: .*remoteEntry.js/);
    expect(readLivePointer(layout)).toEqual({ id: a });
  });

  it('lets one of two promotes at once through; the other fails saying why, and the store stays consistent', async () => {
    const a = await release('a');
    const b = await release('b');
    /** @type {() => void} */
    let open = () => {};
    /** @type {() => void} */
    let gated = () => {};
    const holding = new Promise((resolve) => (gated = () => resolve(undefined)));
    const slowGate = () =>
      new Promise((resolve) => {
        gated();
        open = () => resolve(passing());
      });
    const first = promote(jobs, a, { gate: slowGate, now });
    // The gate runs under the lock: once it has started, the first promote holds it. (Started at once, the two
    // promotes' mkdir calls run on libuv's thread pool, where the second can land first.)
    await holding;
    await expect(promote(jobs, b, { gate: passing, now })).rejects.toThrow(StoreBusyError);
    await expect(promote(jobs, b, { gate: passing, now })).rejects.toThrow(/promote jobs [0-9a-f]{16}/);
    open();
    await first;
    expect(readLivePointer(layout)).toEqual({ id: a });
    expect(readHistory(layout)).toHaveLength(1);
    expect(fs.existsSync(layout.lock)).toBe(false);
  });

  it('names the holder even when it has taken the lock but not yet said who it is', async () => {
    const a = await release('a');
    // The instant between the holder's mkdir and its holder file: the loser waits for the file.
    fs.mkdirSync(layout.lock);
    setTimeout(
      () => fs.writeFileSync(`${layout.lock}-holder.json`, JSON.stringify({ pid: 7, command: 'promote jobs x' })),
      300,
    );
    await expect(promote(jobs, a, { gate: passing, now })).rejects.toThrow(/"promote jobs x" \(pid 7,/);
    fs.rmSync(layout.lock, { recursive: true });
    fs.rmSync(`${layout.lock}-holder.json`);
  });

  it('takes the lock when its holder lets it go while the loser looks for its name, rather than refuse', async () => {
    const a = await release('a');
    // The instant between the holder removing its file and letting go of the lock (a quick change ending).
    fs.mkdirSync(layout.lock);
    setTimeout(() => fs.rmSync(layout.lock, { recursive: true }), 300);
    await promote(jobs, a, { gate: passing, now });
    expect(readLivePointer(layout)).toEqual({ id: a });
  });

  it('takes over the lock of a command that died, once the lock is stale', async () => {
    const a = await release('a');
    // A lock the killed command stopped refreshing: older than STALE_MS.
    fs.mkdirSync(layout.lock);
    fs.writeFileSync(
      `${layout.lock}-holder.json`,
      JSON.stringify({ pid: 2 ** 22 + 1, command: 'promote', since: 'then' }),
    );
    await expect(promote(jobs, a, { gate: passing, now })).rejects.toThrow(/"promote" \(pid 4194305, since then\)/);
    const then = new Date(Date.now() - STALE_MS - 1000);
    fs.utimesSync(layout.lock, then, then);
    await promote(jobs, a, { gate: passing, now });
    expect(readLivePointer(layout)).toEqual({ id: a });
  });

  it('says so when the store cannot be written', async () => {
    const file = path.join(store, 'a-file');
    fs.writeFileSync(file, '');
    const unwritable = folderBackend(path.join(file, 'releases'), 'jobs');
    await expect(promote(unwritable, '0123456789abcdef', { gate: passing, now })).rejects.toThrow(
      new StoreRefusal(`the release store cannot be written at ${unwritable.where} (ENOTDIR)`),
    );
  });
});

describe('rollback', () => {
  it('makes the previously live release live again, and unwinds further on each rollback', async () => {
    const [a, b, c] = [await release('a'), await release('b'), await release('c')];
    for (const id of [a, b, c]) await promote(jobs, id, { gate: passing, now });
    expect(await rollback(jobs, { now })).toEqual({ id: b, from: c });
    expect(readLivePointer(layout)).toEqual({ id: b });
    expect(await rollback(jobs, { now })).toEqual({ id: a, from: b });
    await expect(rollback(jobs, { now })).rejects.toThrow(/no release was live before it/);
    expect(readLivePointer(layout)).toEqual({ id: a });
  });

  it('refuses when nothing is live', async () => {
    await expect(rollback(jobs, { now })).rejects.toThrow(/nothing to roll back/);
  });
});

describe('a history line cut short by a crash', () => {
  it('loses only itself: releases and rollback see every whole change, and rollback returns to the one before', async () => {
    const [a, b, c] = [await release('a'), await release('b'), await release('c')];
    await promote(jobs, a, { gate: passing, now });
    await promote(jobs, b, { gate: passing, now });
    const text = fs.readFileSync(layout.history, 'utf8');
    const last = text.slice(text.lastIndexOf('\n', text.length - 2) + 1);
    fs.writeFileSync(layout.history, text.slice(0, text.length - Math.ceil(last.length / 2)));

    await promote(jobs, c, { gate: passing, now });
    expect(readHistory(layout)).toEqual([
      expect.objectContaining({ action: 'promote', id: a, from: null }),
      expect.objectContaining({ action: 'promote', id: c, from: b }),
    ]);
    expect((await jobs.read(describeReleases)).releases.map((r) => [r.id, r.live, r.previous])).toEqual([
      [a, false, false],
      [b, false, true],
      [c, true, false],
    ]);
    expect(await rollback(jobs, { now })).toEqual({ id: b, from: c });
    expect(readLivePointer(layout)).toEqual({ id: b });
    expect(await rollback(jobs, { now })).toEqual({ id: a, from: b });
  });
});

describe('a live pointer that cannot be turned', () => {
  it('leaves the history as it was', async () => {
    const [a, b] = [await release('a'), await release('b')];
    await promote(jobs, a, { gate: passing, now });
    const history = fs.readFileSync(layout.history, 'utf8');
    // Something in the way that rename(2) cannot replace with a link.
    fs.rmSync(layout.live);
    fs.mkdirSync(path.join(layout.live, 'in-the-way'), { recursive: true });
    await expect(promote(jobs, b, { gate: passing, now })).rejects.toThrow(/EISDIR|ENOTEMPTY|EEXIST/);
    expect(fs.readFileSync(layout.history, 'utf8')).toBe(history);
  });
});

describe('prune', () => {
  it('keeps the release a rollback left, besides the live one', async () => {
    const [a, b, c] = [await release('a'), await release('b'), await release('c')];
    await promote(jobs, a, { gate: passing, now });
    await promote(jobs, b, { gate: passing, now });
    await rollback(jobs, { now });
    expect(await prune(jobs, { keep: 0 })).toEqual({ removed: [c], kept: [a, b] });
  });

  it('prunes a release again when a prune of it before was cut short, leaving it half removed', async () => {
    const [a, b, c] = [await release('a'), await release('b'), await release('c')];
    await promote(jobs, a, { gate: passing, now });
    await promote(jobs, b, { gate: passing, now });
    // A prune of c killed after moving it out of sight; c published again since (the same build, the same id).
    fs.mkdirSync(path.join(layout.incoming, `pruned-${c}`), { recursive: true });
    fs.writeFileSync(path.join(layout.incoming, `pruned-${c}`, 'remoteEntry.js'), 'left by the prune');
    expect(await prune(jobs, { keep: 0 })).toEqual({ removed: [c], kept: [a, b] });
    expect(fs.existsSync(layout.release(c))).toBe(false);
    expect(fs.existsSync(layout.incoming)).toBe(false);
  });

  it("removes a removed release's failed gate and preview marks, and no other release's", async () => {
    const [a, b] = [await release('a'), await release('b')];
    const failing = async () => ({ at: now().toISOString(), passed: false, checks: [] });
    await promote(jobs, a, { gate: passing, now });
    await expect(promote(jobs, b, { gate: failing, now })).rejects.toThrow(/failed the gate/);
    fs.mkdirSync(layout.previewMarks);
    for (const id of [a, b]) fs.writeFileSync(layout.previewMark(id, 'f'.repeat(32)), '');
    expect(await prune(jobs, { keep: 0 })).toEqual({ removed: [b], kept: [a] });
    expect(fs.existsSync(layout.gateFailed(b))).toBe(false);
    expect(fs.readdirSync(layout.previewMarks)).toEqual([`${a}.${'f'.repeat(32)}`]);
  });

  it('keeps the newest, the live and the previous release, and the hashed files only they name', async () => {
    const [a, b, c, d, e] = [
      await release('a'),
      await release('b'),
      await release('c'),
      await release('d'),
      await release('e'),
    ];
    await promote(jobs, a, { gate: passing, now });
    await promote(jobs, b, { gate: passing, now });
    fs.mkdirSync(path.join(layout.incoming, 'left-by-a-crash'), { recursive: true });
    const { removed, kept } = await prune(jobs, { keep: 2 });
    expect(removed).toEqual([c]);
    expect(kept).toEqual([a, b, d, e]);
    expect(fs.existsSync(layout.release(c))).toBe(false);
    expect(fs.readdirSync(layout.assets).sort()).toEqual(['a', 'b', 'd', 'e'].map((x) => `${x}.0123456789.js`));
    expect(fs.existsSync(layout.incoming)).toBe(false);
    expect(readLivePointer(layout)).toEqual({ id: b });
  });
});
