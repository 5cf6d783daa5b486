/** @jest-environment node */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { recordMaker } = require('@nativegtm/server/fieldData/recordFixtures');
const { createRecordWriter } = require('@nativegtm/server/fieldData/recordStore');
const { openFieldRecords } = require('@nativegtm/server/fieldData/fieldRecords');
const { createStoreBudget } = require('@nativegtm/server/fieldData/storeBudget');
const { canaryKey, readCanary, writeCanary } = require('@nativegtm/store/canaryInStore');
const { readLivePointer } = require('@nativegtm/store/livePointer');
const { storeLayout } = require('@nativegtm/store/layout');
const { ReleaseError } = require('@nativegtm/store/operations');
const { openFolderStore } = require('@nativegtm/store/folderStore');
const { fakeBuild, removeFakeBuilds } = require('@nativegtm/store/testing/fakeBuild');
const { CanaryGone } = require('@nativegtm/store/canaryChanges');
const { driveCanary } = require('./driveCanary');
const { DROPPED_REASON } = require('./verdict');

const START = Date.UTC(2026, 10, 26, 10, 0);
const settings = { stepTimeMs: 60_000, minViews: 40, maxWaitMs: 60_000 };

/** @type {string} */
let dir;
/** @type {import('@nativegtm/store/layout').StoreLayout} */
let layout;
/** @type {import('@nativegtm/store/remoteStore').RemoteStore} */
let store;
/** @type {string} */
let records;
let clock = START;
const now = () => clock;
/** @param {number} ms */
const sleep = async (ms) => {
  clock += ms;
};
/** @type {{ live: string, next: string }} */
let ids;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-canary-'));
  layout = storeLayout(path.join(dir, 'store'), 'jobs');
  store = openFolderStore(path.join(dir, 'store')).remote('jobs');
  records = path.join(dir, 'field-data');
  clock = START;
  const source = { commit: 'abc', dirty: false };
  const publishBuild = async (/** @type {string} */ buildId) =>
    (await store.publish(fakeBuild({ buildId, chunk: `${buildId}.0123456789.js` }), source)).id;
  ids = { live: await publishBuild('a'), next: await publishBuild('b') };
  await store.promote(ids.live, { gate: null });
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  removeFakeBuilds();
});

const { view, error, vital } = recordMaker({ remote: 'jobs', route: '/featured-jobs', signed: true });

/** The key of the canaries these tests start (at START): their documents' tokens carry it. */
const CANARY = canaryKey({ startedAt: new Date(START).toISOString() });

/**
 * Writes views of each side within the step that starts at `since`: `errors` of the canary's views throw, and each
 * side's INP is the given value. Each document comes from a network of its own unless `network` says.
 * @param {number} since
 * @param {{ views?: number, errors?: number, inp?: { canary: number, control: number }, network?: string }} [shape]
 */
function visitors(since, { views = 50, errors = 0, inp = { canary: 80, control: 80 }, network } = {}) {
  const writer = createRecordWriter({ dir: records, now: () => since + 1000 });
  /** @type {import('@nativegtm/server/fieldData/recordStore').FieldRecord[]} */
  const batch = [];
  for (const side of /** @type {const} */ (['canary', 'control'])) {
    for (let index = 0; index < views; index += 1) {
      const doc = `${side}-${since}-${index}`;
      const labels = { cohort: `${side}:jobs`, doc, seq: 0, t: since + 1000, canary: CANARY, net: network ?? doc };
      batch.push(view(labels), vital('INP', inp[side] + (index % 7), labels));
      if (side === 'canary' && index < errors) batch.push(error({ ...labels, page: 'jobs' }));
    }
  }
  writer.write(batch);
  writer.flush();
}

const start = (steps = [50, 100]) => store.startCanary(ids.next, { steps, settings, gate: null, now });
/** @param {import('@nativegtm/store/canaryInStore').CanaryState} state */
const drive = (state, lines = /** @type {string[]} */ ([])) =>
  driveCanary({
    store,
    fieldRecords: openFieldRecords({ dir: records }),
    state,
    now,
    sleep,
    print: (line) => lines.push(line),
  });

describe('a canary, step by step', () => {
  it('goes through its steps while each side does as well as the other, and ends live', async () => {
    const state = await start([25, 50, 100]);
    visitors(START);
    visitors(START + settings.stepTimeMs + 100);
    const lines = /** @type {string[]} */ ([]);
    const ended = await drive(state, lines);
    expect(ended).toMatchObject({ outcome: 'promoted', id: ids.next });
    expect(ended.verdicts.map((step) => [step.share, step.verdict])).toEqual([
      [25, 'pass'],
      [50, 'pass'],
    ]);
    expect(readLivePointer(layout)).toEqual({ id: ids.next });
    expect(readCanary(layout)).toEqual({});
    expect(lines[0]).toMatch(/^ 25 % {2}50 views vs 50 on live · errors 0\.0 vs 0\.0 per 1,000 · INP \d+ ms vs \d+ ms/);
    expect(lines[lines.length - 1]).toBe('100 %  promoted');
    expect(await store.endedCanaries()).toEqual([expect.objectContaining({ outcome: 'promoted' })]);
    // The promote is an ordinary one: a rollback undoes it.
    await expect(store.rollback()).resolves.toMatchObject({ id: ids.live });
  });

  it('rolls back at the first step whose canary throws, naming the signal', async () => {
    const state = await start();
    visitors(START, { errors: 20 });
    const ended = await drive(state);
    expect(ended).toMatchObject({ outcome: 'rolled back', reason: 'errors 400.0 per 1,000 views vs 0.0 on live' });
    expect(readLivePointer(layout)).toEqual({ id: ids.live });
    expect(readCanary(layout)).toEqual({});
  });

  it('judges with the margins its settings give', async () => {
    // 400 errors per 1,000 views more than live is within a margin of 500; INP twice live's within one of 150 %.
    const state = await store.startCanary(ids.next, {
      steps: [50, 100],
      settings: { ...settings, errorMargin: 500, p75Margin: 1.5 },
      gate: null,
      now,
    });
    visitors(START, { errors: 20, inp: { canary: 160, control: 80 } });
    await expect(drive(state)).resolves.toMatchObject({ outcome: 'promoted' });
  });

  it('never judges views that all come from one network (a CDN not seen through), and says why', async () => {
    const state = await start();
    // Errors on every canary view: from many networks, a rollback; from one, no verdict either way.
    visitors(START, { errors: 50, network: 'cdn' });
    const ended = await drive(state);
    expect(ended).toMatchObject({
      outcome: 'no verdict',
      reason: 'views come from 1 network (at least 20 needed): set TRUSTED_PROXIES if behind a proxy or CDN',
    });
    expect(readLivePointer(layout)).toEqual({ id: ids.live });
  });

  it('counts only the documents served for the canary it judges', async () => {
    const state = await start();
    // A tab left open from an earlier canary of the remote sends errors: its token names that canary.
    visitors(START);
    const writer = createRecordWriter({ dir: records, now: () => START + 1000 });
    writer.write(
      Array.from({ length: 50 }, (_, index) => {
        const labels = { cohort: 'canary:jobs', doc: `old-${index}`, seq: 0, t: START + 1000, net: `old-${index}` };
        return [view({ ...labels, canary: 'mig0aaaa' }), error({ ...labels, canary: 'mig0aaaa', page: 'jobs' })];
      }).flat(),
    );
    writer.flush();
    expect(await drive(state)).toMatchObject({ outcome: 'promoted' });
  });

  it('rolls back on a slower interaction', async () => {
    const state = await start();
    visitors(START, { inp: { canary: 380, control: 80 } });
    const ended = await drive(state);
    expect(ended.outcome).toBe('rolled back');
    expect(ended.reason).toMatch(/^INP p75 38\d ms vs 8\d ms on live$/);
  });

  it('ends without a verdict, never promoting, when the store dropped records for its budget in the step', async () => {
    const state = await start([50, 100]);
    visitors(START);
    // A writer past its budget halfway through the step: it refuses a beacon, and marks the drop.
    const budget = createStoreBudget({ dir: records, name: 'flooded-1', hourBytes: 1024, now: () => START + 30_000 });
    budget.spent(1024);
    expect(budget.admit()).toBe(false);
    const lines = /** @type {string[]} */ ([]);
    const ended = await drive(state, lines);
    expect(ended).toMatchObject({ outcome: 'no verdict', reason: DROPPED_REASON });
    expect(lines).toEqual([expect.stringMatching(/→ no-verdict: field data was dropped \(budget\) during this step$/)]);
    // Ended at once: no waiting for more views, which cannot bring back what was dropped.
    expect(clock).toBeLessThan(START + settings.stepTimeMs + 5_000);
    expect(readLivePointer(layout)).toEqual({ id: ids.live });
    expect(readCanary(layout)).toEqual({});
  });

  it('judges a step as usual when the drops were before it', async () => {
    const budget = createStoreBudget({ dir: records, name: 'flooded-1', hourBytes: 1024, now: () => START - 60_000 });
    budget.spent(1024);
    expect(budget.admit()).toBe(false);
    const state = await start([50, 100]);
    visitors(START);
    await expect(drive(state)).resolves.toMatchObject({ outcome: 'promoted' });
  });

  it('waits for traffic up to --max-wait, then ends without a verdict', async () => {
    const state = await start();
    visitors(START, { views: 30 });
    const ended = await drive(state);
    expect(ended).toMatchObject({ outcome: 'no verdict' });
    expect(ended.reason).toMatch(/^not enough traffic: 30 views on the canary, 30 on live/);
    expect(clock - START).toBeGreaterThanOrEqual(settings.stepTimeMs + settings.maxWaitMs);
    expect(readLivePointer(layout)).toEqual({ id: ids.live });
    expect(readCanary(layout)).toEqual({});
  });

  it('judges a step that got its views late, within --max-wait', async () => {
    const state = await start();
    visitors(START, { views: 10 });
    visitors(START + settings.stepTimeMs + 5000, { views: 40 });
    await expect(drive(state)).resolves.toMatchObject({ outcome: 'promoted' });
  });
});

describe("a canary's controls", () => {
  it('refuses promote, rollback, prune of its release and a second canary while it runs', async () => {
    await start();
    const refused = /a canary of jobs is running \(release .+ is at 50 %\): no (promote|rollback|second canary)/;
    await expect(store.promote(ids.next, { gate: null })).rejects.toThrow(refused);
    await expect(store.rollback()).rejects.toThrow(refused);
    await expect(start()).rejects.toThrow(refused);
    await expect(start()).rejects.toBeInstanceOf(ReleaseError);
    await store.prune({ keep: 0 });
    expect(fs.existsSync(layout.release(ids.next))).toBe(true);
  });

  it('refuses a canary of the live release, or with nothing live to compare with', async () => {
    await expect(store.startCanary(ids.live, { steps: [50, 100], settings, gate: null, now })).rejects.toThrow(
      'is already live',
    );
  });

  it('starts nothing when the gate fails', async () => {
    const gate = async () => ({ at: '', passed: false, checks: [{ name: 'hydration', ok: false, detail: 'threw' }] });
    await expect(store.startCanary(ids.next, { steps: [50, 100], settings, gate, now })).rejects.toThrow(
      /failed the gate; no canary started\.\n {2}✗ hydration: threw/,
    );
    expect(readCanary(layout)).toEqual({});
  });

  it('stops the command, changing nothing, when an operator aborts', async () => {
    const state = await start();
    let looks = 0;
    const run = driveCanary({
      store,
      fieldRecords: openFieldRecords({ dir: records }),
      state,
      now,
      sleep: async (ms) => {
        clock += ms;
        looks += 1;
        if (looks === 3) await store.abortCanary({ now });
      },
    });
    await expect(run).rejects.toBeInstanceOf(CanaryGone);
    expect(readCanary(layout)).toEqual({});
    expect(readLivePointer(layout)).toEqual({ id: ids.live });
    expect(await store.endedCanaries()).toEqual([expect.objectContaining({ outcome: 'aborted', id: ids.next })]);
    await expect(store.abortCanary({ now })).rejects.toThrow('no canary of jobs is running');
  });

  it('aborts a canary state that cannot be read, which nothing else can end', async () => {
    await start();
    fs.writeFileSync(path.join(fs.realpathSync(layout.canary), 'canary.json'), '{ broken');
    await expect(store.promote(ids.next, { gate: null })).rejects.toThrow(/cannot be read|not JSON/);
    await expect(store.abortCanary({ now })).resolves.toEqual({ problem: "the canary's state is not JSON" });
    expect(readCanary(layout)).toEqual({});
    await expect(store.promote(ids.next, { gate: null })).resolves.toMatchObject({ changed: true });
  });

  it('resumes a canary whose command died, at the share it was left at', async () => {
    const state = await start([25, 50, 100]);
    // The command that started it died: its pid is one no process has any more.
    const dead = /** @type {number} */ (spawnSync('true').pid);
    writeCanary(layout, 'jobs', { ...state, share: 50, command: { ...state.command, pid: dead } });
    const resumed = await store.takeOverCanary();
    expect(resumed).toMatchObject({ share: 50, command: { pid: process.pid } });
    // It is alive now: a second resume is refused.
    await expect(store.takeOverCanary()).rejects.toThrow('is alive');
    visitors(START);
    const ended = await drive(resumed);
    expect(ended.outcome).toBe('promoted');
    expect(ended.verdicts.map((step) => step.share)).toEqual([50]);
  });
});
