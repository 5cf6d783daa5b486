/** @jest-environment node */
// The canary command's lease: who may change a running canary, and when another command may take it over.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { openFolderStore } = require('./folderStore');
const { storeLayout } = require('./layout');
const { readCanary, thisCommand, writeCanary } = require('./canaryInStore');
const { renewLease, takeOverable } = require('./canaryChanges');
const { CLOCK_SKEW_MS, LEASE_TTL_MS } = require('./canaryLease');
const { STALE_MS, StoreBusyError, withStoreLock } = require('./storeLock');
const { removeFakeBuilds } = require('./testing/fakeBuild');
const { liveAndNext } = require('./testing/liveAndNext');

const START = Date.UTC(2026, 10, 28, 9, 0);
const pause = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));
const settings = { stepTimeMs: 60_000, minViews: 40, maxWaitMs: 60_000 };
const passed = /** @type {const} */ ({ share: 25, verdict: 'pass', reason: 'ok', at: new Date(START).toISOString() });

/** @type {string} */
let dir;
/** @type {import('./remoteStore').RemoteStore} */
let store;
/** @type {import('./layout').StoreLayout} */
let layout;
/** @type {string} */
let next;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-lease-'));
  store = openFolderStore(dir).remote('jobs');
  layout = storeLayout(dir, 'jobs');
  ({ next } = await liveAndNext(store));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  removeFakeBuilds();
});

/** @param {number} [leaseTtlMs] */
const start = (leaseTtlMs) =>
  store.startCanary(next, { steps: [25, 100], settings, gate: null, now: () => START, leaseTtlMs });

/**
 * The running canary as if another machine's command ran it, under the same lease.
 * @param {import('./canaryInStore').CanaryState} state
 */
function runByAnotherMachine(state) {
  const elsewhere = { ...state, command: { host: `not-${os.hostname()}`, pid: 4242 } };
  writeCanary(layout, 'jobs', elsewhere);
  return elsewhere;
}

/**
 * The state with its lease ending at `expiresAt`.
 * @param {import('./canaryInStore').CanaryState} state
 * @param {number} expiresAt
 */
const withLease = (state, expiresAt) => ({
  ...state,
  lease: { epoch: 1, ttlMs: LEASE_TTL_MS, expiresAt: new Date(expiresAt).toISOString() },
});

describe("a canary command's lease", () => {
  it('is renewed once another command lets go of the store, not lost to its moment there', async () => {
    const state = await start();
    // Another command (a promote about to be refused, say) holds the remote's lock for 300 ms.
    const held = withStoreLock(layout.lock, 'promote jobs (refused soon)', () => pause(300));
    await pause(50);
    const renewed = await store.renewLease(state, START + 5000);
    await held;
    expect(renewed.lease?.expiresAt).toBe(new Date(START + 20_000).toISOString());
  });

  it('leaves a promote, rollback or second canary refused for the canary in the moment a renewal holds the store', async () => {
    const state = await start();
    /** @type {() => void} */
    let letGo = () => {};
    /** @type {() => void} */
    let holding = () => {};
    const held = new Promise((resolve) => (holding = () => resolve(undefined)));
    const renewing = withStoreLock(
      layout.lock,
      `canary jobs ${next} renew`,
      () =>
        new Promise((resolve) => {
          letGo = () => resolve(undefined);
          holding();
        }),
    );
    await held;
    const refused = (/** @type {string} */ what) =>
      new RegExp(`a canary of jobs is running \\(release ${state.id} is at 25 %\\): no ${what} until it ends`);
    await expect(store.promote(next, { gate: null })).rejects.toThrow(refused('promote'));
    await expect(store.rollback()).rejects.toThrow(refused('rollback'));
    await expect(start()).rejects.toThrow(refused('second canary'));
    letGo();
    await renewing;
  });

  it('is not renewed twice when the lock was lost during the renewal (it may have been made)', async () => {
    const state = await start();
    const lost = new StoreBusyError("the store's lock was lost", { lost: true });
    const backend = /** @type {any} */ ({ remote: 'jobs', renewLease: jest.fn().mockRejectedValue(lost) });
    await expect(renewLease(backend, state, START + 5000)).rejects.toBe(lost);
    expect(backend.renewLease).toHaveBeenCalledTimes(1);
  });

  it('is taken when the canary starts, for 15 s unless told', async () => {
    expect((await start()).lease).toEqual({
      epoch: 1,
      ttlMs: LEASE_TTL_MS,
      expiresAt: new Date(START + 15_000).toISOString(),
    });
  });

  it('keeps another command from taking the canary over while it runs, from any machine', async () => {
    runByAnotherMachine(await start());
    await expect(store.takeOverCanary({ now: () => START + 14_999 })).rejects.toThrow(
      /the command running jobs's canary is alive \(pid 4242 on not-.*; its lease runs until 2026-11-28T09:00:15\.000Z\)/,
    );
    expect(readCanary(layout).canary?.lease?.epoch).toBe(1);
  });

  it('once it ran out, lets another take over; the first one can then change nothing', async () => {
    const first = runByAnotherMachine(await start());
    const taken = await store.takeOverCanary({ now: () => START + 15_000 });
    expect(taken.lease).toEqual({ epoch: 2, ttlMs: LEASE_TTL_MS, expiresAt: new Date(START + 30_000).toISOString() });
    expect(taken.command).toEqual(thisCommand());

    const before = fs.readFileSync(path.join(layout.canary, 'canary.json'), 'utf8');
    const refused = /the canary of release \w+ was taken over by pid \d+ on /;
    await expect(store.advanceCanary(first, passed, 100, START + 16_000)).rejects.toThrow(refused);
    await expect(store.renewLease(first, START + 16_000)).rejects.toThrow(refused);
    await expect(
      store.finishCanary(first, { outcome: 'rolled back', reason: 'worse', last: passed, at: START + 16_000 }),
    ).rejects.toThrow(refused);
    expect(fs.readFileSync(path.join(layout.canary, 'canary.json'), 'utf8')).toBe(before);
    expect(await store.endedCanaries()).toEqual([]);

    // The one that took it over carries on.
    await expect(store.advanceCanary(taken, passed, 100, START + 17_000)).resolves.toMatchObject({ share: 100 });
  });

  it('is renewed by each change and by itself, from the time of the change', async () => {
    const state = await start(3000);
    const renewed = await store.renewLease(state, START + 2000);
    expect(renewed.lease).toEqual({ epoch: 1, ttlMs: 3000, expiresAt: new Date(START + 5000).toISOString() });
    const advanced = await store.advanceCanary(renewed, passed, 100, START + 4000);
    expect(advanced.lease?.expiresAt).toBe(new Date(START + 7000).toISOString());
    // Renewed in time, it is never taken over.
    await expect(store.takeOverCanary({ now: () => START + 6999 })).rejects.toThrow(/is alive/);
  });

  it('of a canary started before leases counts as run out', async () => {
    const { lease, ...withoutLease } = runByAnotherMachine(await start());
    expect(lease).toBeDefined();
    writeCanary(layout, 'jobs', withoutLease);
    await expect(store.takeOverCanary({ now: () => START })).resolves.toMatchObject({ lease: { epoch: 1 } });
  });

  it("marks a deploy API's canary as its own, and a command's take-over as the command's", async () => {
    const pipeline = { by: 'token 3f9a2c1d0b7e (team jobs)', kind: /** @type {const} */ ('token'), team: 'jobs' };
    const viaApi = openFolderStore(dir).remote('jobs', { actor: pipeline });
    const started = await viaApi.startCanary(next, {
      steps: [25, 100],
      settings,
      gate: null,
      now: () => START,
      byApi: true,
    });
    expect(started.api).toEqual({ actor: pipeline });
    // Another API carrying it on keeps the mark, as whom it was given: the actor whose store takes it over.
    runByAnotherMachine(started);
    const carried = await viaApi.takeOverCanary({ now: () => START + 15_000, carryOn: true });
    expect(carried).toMatchObject({ api: { actor: pipeline }, lease: { epoch: 2 } });
    expect((await store.audit()).at(-1)).toMatchObject({ action: 'canary jobs carried on by the deploy API' });
    // An operator's --resume where the store is: the command's now, no API takes it from the operator.
    runByAnotherMachine(carried);
    const resumed = await store.takeOverCanary({ now: () => START + 30_000 });
    expect(resumed.lease?.epoch).toBe(3);
    expect(resumed).not.toHaveProperty('api');
    expect(readCanary(layout).canary).not.toHaveProperty('api');
    // An API that looked before that resume cannot carry it on: the mark is read again in the change.
    runByAnotherMachine(resumed);
    await expect(viaApi.takeOverCanary({ now: () => START + 45_000, carryOn: true })).rejects.toThrow(
      "jobs's canary is run by a command: it is left to it",
    );
    expect(readCanary(layout).canary?.lease?.epoch).toBe(3);
    // A command's canary carries no mark.
    await store.abortCanary({ now: () => START + 31_000 });
    expect(await start()).not.toHaveProperty('api');
  });

  it('says who may take a canary over: once its lease ran out, or at once when its command is gone here', async () => {
    const state = await start();
    expect(takeOverable(state, START + 14_999)).toBe(false);
    expect(takeOverable(state, START + 15_000)).toBe(true);
    const elsewhere = runByAnotherMachine(state);
    expect(takeOverable(elsewhere, START + 14_999)).toBe(false);
    // A pid no process has on this machine (above the kernel's pid_max).
    const gone = { ...state, command: { ...state.command, pid: 2 ** 22 + 1 } };
    expect(takeOverable(gone, START)).toBe(true);
    // The same host name and pid, in another space of pids (a container of its own) or in a state that names none: it
    // may run there, so the lease decides.
    for (const command of [
      { ...gone.command, space: 'another-boot/pid:[1]' },
      { host: os.hostname(), pid: 2 ** 22 + 1 },
    ]) {
      expect(takeOverable({ ...state, command }, START)).toBe(false);
      expect(takeOverable({ ...state, command }, START + 15_000)).toBe(true);
    }
  });

  it('counts a lease that ends further ahead than any clock could have renewed it to as run out', async () => {
    const state = runByAnotherMachine(await start());
    /** @param {number} expiresAt */
    const renewalTo = (expiresAt) =>
      fs.writeFileSync(
        layout.canaryLease,
        JSON.stringify({
          id: state.id,
          startedAt: state.startedAt,
          epoch: 1,
          expiresAt: new Date(expiresAt).toISOString(),
        }),
      );
    // Renewed on a clock 4 min ahead of this one: it holds.
    renewalTo(START + 4 * 60_000 + LEASE_TTL_MS);
    await expect(store.takeOverCanary({ now: () => START + 1000 })).rejects.toThrow(/is alive/);
    // Forged to end in 9999: no clock within the store's skew renews that far, and the canary is not held for ever.
    renewalTo(Date.UTC(9999, 0, 1));
    expect(takeOverable(withLease(state, Date.UTC(9999, 0, 1)), START + 1000)).toBe(true);
    expect(takeOverable(withLease(state, START + 1000 + LEASE_TTL_MS + CLOCK_SKEW_MS), START + 1000)).toBe(false);
    await expect(store.takeOverCanary({ now: () => START + 1000 })).resolves.toMatchObject({ lease: { epoch: 2 } });
  });

  it('holds a lease of a state written before its bounds to the nearest bound', async () => {
    const state = await start();
    const { leaseOf } = require('./canaryChanges');
    expect(leaseOf({ ...state, lease: { epoch: 1, ttlMs: 0, expiresAt: state.startedAt } }).ttlMs).toBe(1000);
    expect(leaseOf({ ...state, lease: { epoch: 1, ttlMs: 1e16, expiresAt: state.startedAt } }).ttlMs).toBe(300_000);
  });

  it('makes a state whose lease is not one unusable, as any malformed state', async () => {
    const state = await start();
    const file = path.join(fs.realpathSync(layout.canary), 'canary.json');
    fs.writeFileSync(file, JSON.stringify({ ...state, lease: { epoch: 'one', ttlMs: 15_000, expiresAt: 'soon' } }));
    expect(readCanary(layout)).toEqual({ problem: "the canary's state has no lease" });
    // A deploy API's mark forged with no actor it could act as: no API may carry it on.
    fs.writeFileSync(file, JSON.stringify({ ...state, api: { actor: { by: 'anyone', kind: 'root' } } }));
    expect(readCanary(layout)).toEqual({ problem: "the canary's state has no actor for the deploy API" });
  });
});

describe('an abort', () => {
  it("ends the canary of a command killed inside a change, once the store's lock it left is stale", async () => {
    await start();
    // The lock as a command killed during a renewal leaves it: taken, never refreshed again, stale in 6 s. That is
    // longer than any live command holds the store, so only an abort that waits out a dead holder ends the canary.
    fs.mkdirSync(layout.lock);
    fs.writeFileSync(
      `${layout.lock}-holder.json`,
      JSON.stringify({ pid: 2 ** 22 + 1, command: 'canary jobs x renew', since: 'then' }),
    );
    const taken = new Date(Date.now() - STALE_MS + 6000);
    fs.utimesSync(layout.lock, taken, taken);
    await expect(store.abortCanary({ now: () => START + 1000 })).resolves.toMatchObject({ outcome: 'aborted' });
    expect(readCanary(layout)).toEqual({});
  }, 30_000);
});
