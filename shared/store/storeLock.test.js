/** @jest-environment node */
// The store's lock fences the writes of its holder: a command stopped inside a change for longer than the lock's
// staleness, whose lock another command took over meanwhile, writes nothing more once it runs again.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { folderBackend } = require('./folderBackend');
const { openFolderStore } = require('./folderStore');
const { storeLayout } = require('./layout');
const { readHistory } = require('./liveHistory');
const { readLivePointer } = require('./livePointer');
const { promote } = require('./operations');
const { publishRelease } = require('./publish');
const { readGate } = require('./records');
const { STALE_MS, StoreBusyError, withStoreLock } = require('./storeLock');
const { fakeBuild, removeFakeBuilds } = require('./testing/fakeBuild');
const { liveAndNext } = require('./testing/liveAndNext');

/** @type {string} */
let dir;
/** @type {import('./layout').StoreLayout} */
let layout;
/** @type {import('./storeBackend').StoreBackend} */
let jobs;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-fence-'));
  layout = storeLayout(dir, 'jobs');
  jobs = folderBackend(dir, 'jobs');
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  removeFakeBuilds();
});

const source = { commit: 'abc', dirty: false };
/** @param {string} buildId */
const release = async (buildId) =>
  (await jobs.publish(fakeBuild({ buildId, chunk: `${buildId}.0123456789.js` }), source)).id;
const passing = async () => ({ at: new Date().toISOString(), passed: true, checks: [] });
const holderFile = () => `${layout.lock}-holder.json`;
const holder = () => JSON.parse(fs.readFileSync(holderFile(), 'utf8'));

/**
 * The lock as its holder left it had it stopped refreshing it STALE_MS ago: what a stop of that long (SIGSTOP, a
 * machine swapped out) leaves, without waiting for it.
 */
function makeStale() {
  const then = new Date(Date.now() - STALE_MS - 1000);
  fs.utimesSync(layout.lock, then, then);
}

/**
 * Everything in the remote's folder but the lock and its holder's file: each file's bytes, each link's target.
 * @param {string} [folder]
 * @returns {Record<string, string>}
 */
function contents(folder = layout.dir) {
  /** @type {Record<string, string>} */
  const found = {};
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    const file = path.join(folder, entry.name);
    const name = path.relative(layout.dir, file);
    if (name === '.lock' || name === '.lock-holder.json') continue;
    if (entry.isSymbolicLink()) found[name] = `-> ${fs.readlinkSync(file)}`;
    else if (entry.isDirectory()) Object.assign(found, contents(file));
    else found[name] = fs.readFileSync(file, 'utf8');
  }
  return found;
}

describe('a command stopped inside a change, whose stale lock another command took over', () => {
  // A promote whose gate stops the process (as SIGSTOP or a machine swapped out would, between two writes of one
  // change), with the command-line convention's ending: a refusal is one line and exit 1.
  const STOPPED_PROMOTE = `
    const fs = require('node:fs');
    const { folderBackend } = require(${JSON.stringify(require.resolve('./folderBackend'))});
    const { promote } = require(${JSON.stringify(require.resolve('./operations'))});
    const { StoreRefusal } = require(${JSON.stringify(require.resolve('./storeRefusal'))});
    const [dir, id] = process.argv.slice(1);
    const gate = async () => {
      fs.writeSync(1, 'gating\\n');
      process.kill(process.pid, 'SIGSTOP');
      return { at: new Date().toISOString(), passed: true, checks: [] };
    };
    promote(folderBackend(dir, 'jobs'), id, { gate }).then(
      () => process.exit(0),
      (error) => {
        fs.writeSync(2, error.message + '\\n');
        process.exit(error instanceof StoreRefusal ? 1 : 2);
      },
    );
  `;

  /**
   * Starts the stopped promote of `id`, resolving once it is stopped in its gate, holding the lock.
   * @param {string} id
   */
  async function stoppedPromote(id) {
    const child = spawn(process.execPath, ['-e', STOPPED_PROMOTE, dir, id]);
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    /** @type {Promise<{ code: number | null, stderr: string }>} */
    const exited = new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
    await new Promise((resolve, reject) => {
      child.stdout.on('data', resolve);
      child.on('close', () => reject(new Error(`the promote ended before its gate: ${stderr}`)));
    });
    const state = () => {
      const stat = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    };
    while (state() !== 'T') await new Promise((resolve) => setTimeout(resolve, 10));
    return { resume: () => process.kill(/** @type {number} */ (child.pid), 'SIGCONT'), exited };
  }

  it('refuses, once it runs again, to turn the live pointer back after the other command changed it', async () => {
    const a = await release('a');
    const b = await release('b');
    const stopped = await stoppedPromote(a);
    makeStale();
    await promote(jobs, b, { gate: passing });
    stopped.resume();

    const { code, stderr } = await stopped.exited;
    expect(stderr).toMatch(
      new RegExp(`^the store's lock was lost while "promote jobs ${a}" ran \\(another command took it over\\)`),
    );
    expect(code).toBe(1);
    expect(readLivePointer(layout)).toEqual({ id: b });
    expect(readHistory(layout).map((change) => change.id)).toEqual([b]);
    expect(readGate(layout, a)).toBeUndefined();
    expect((await jobs.audit()).map((entry) => entry.action)).toEqual([
      'release jobs ' + a,
      'release jobs ' + b,
      `promote jobs ${b}`,
    ]);
  }, 20_000);

  it('writes nothing while the other command holds the lock, and leaves that lock alone when it exits', async () => {
    const a = await release('a');
    const b = await release('b');
    const stopped = await stoppedPromote(a);
    makeStale();
    /** @type {{ code: number | null, stderr: string } | undefined} */
    let ended;
    const gate = async () => {
      // The stopped command runs again while this one holds the lock it took over.
      stopped.resume();
      ended = await stopped.exited;
      expect(fs.existsSync(layout.lock)).toBe(true);
      expect(holder()).toMatchObject({ command: `promote jobs ${b}`, pid: process.pid });
      expect(readGate(layout, a)).toBeUndefined();
      expect(readLivePointer(layout)).toEqual({ id: undefined });
      return passing();
    };
    await promote(jobs, b, { gate });

    expect(ended?.stderr).toMatch(
      new RegExp(
        `^the store's lock was lost while "promote jobs ${a}" ran \\(another command took it over: ` +
          `"promote jobs ${b}" \\(pid ${process.pid}, since `,
      ),
    );
    expect(ended?.code).toBe(1);
    expect(readLivePointer(layout)).toEqual({ id: b });
    expect(readHistory(layout)).toEqual([expect.objectContaining({ id: b, from: null })]);
    expect(fs.existsSync(layout.lock)).toBe(false);
  }, 20_000);
});

describe('each write of a change whose lock was taken over', () => {
  /**
   * Runs `write` in a change of `jobs` after another command took its lock over (stale) and while that one holds
   * it; resolves with the change's refusal, once the store is checked unchanged by it and the other let go.
   * @param {(state: import('./storeBackend').RemoteState) => void} write
   */
  async function afterTakeOver(write) {
    /** @type {() => void} */
    let letGo = () => {};
    /** @type {Promise<unknown> | undefined} */
    let other;
    /** @type {Record<string, string>} */
    let before = {};
    const change = jobs.change('stopped jobs', async (state) => {
      makeStale();
      await new Promise((holding) => {
        other = withStoreLock(layout.lock, 'promote jobs', () => {
          holding(undefined);
          return new Promise((resolve) => (letGo = () => resolve(undefined)));
        });
      });
      before = contents();
      write(state);
    });
    const refusal = await change.catch((/** @type {unknown} */ error) => error);
    expect(contents()).toEqual(before);
    expect(holder()).toMatchObject({ command: 'promote jobs' });
    letGo();
    await other;
    return refusal;
  }

  /** @type {[string, (state: import('./storeBackend').RemoteState, ids: { live: string, next: string }) => void][]} */
  const writes = [
    ['writeGate', (state, { next }) => state.writeGate(next, { at: 'now', passed: false, checks: [] })],
    [
      'changeLive',
      (state, { live, next }) => state.changeLive({ at: 'now', action: 'promote', id: next, from: live, by: 'me' }),
    ],
    [
      'writeCanary',
      (state, { next }) =>
        state.writeCanary({
          v: 1,
          id: next,
          share: 5,
          steps: [5, 100],
          startedAt: '2026-11-26T10:00:00.000Z',
          stepStartedAt: '2026-11-26T10:00:00.000Z',
          settings: { stepTimeMs: 600_000, minViews: 200, maxWaitMs: 600_000 },
          verdicts: [],
          command: { host: 'here', pid: 1 },
        }),
    ],
    ['endCanary', (state) => state.endCanary()],
    [
      'recordEnd',
      (state, { next }) =>
        state.recordEnd({
          id: next,
          startedAt: 'then',
          endedAt: 'now',
          outcome: 'aborted',
          reason: 'aborted',
          steps: [5, 100],
          verdicts: [],
        }),
    ],
    ['addPreviewMark', (state, { next }) => state.addPreviewMark(next, 'mark')],
    ['removeRelease', (state, { next }) => state.removeRelease(next)],
    ['removeUnusedFiles', (state) => state.removeUnusedFiles([])],
  ];

  it.each(writes)('%s: refused, writing nothing, the other command’s lock left alone', async (_, write) => {
    const remote = openFolderStore(dir).remote('jobs');
    const ids = await liveAndNext(remote);
    await remote.startCanary(ids.next, {
      steps: [25, 100],
      settings: { stepTimeMs: 60_000, minViews: 40, maxWaitMs: 60_000 },
      gate: null,
      now: Date.now,
    });
    const refusal = await afterTakeOver((state) => write(state, ids));
    expect(refusal).toBeInstanceOf(StoreBusyError);
    expect(refusal).toMatchObject({ lost: true });
    expect(/** @type {Error} */ (refusal).message).toMatch(
      /^the store's lock was lost while "stopped jobs" ran \(another command took it over: "promote jobs"/,
    );
  });

  it('publish: no file of the release is shared, recorded or put in place', () => {
    const refused = new StoreBusyError("the store's lock was lost", { lost: true });
    const fence = () => {
      throw refused;
    };
    fs.mkdirSync(layout.dir, { recursive: true });
    const before = contents();
    expect(() => publishRelease(layout, 'jobs', fakeBuild(), { ...source, fence })).toThrow(refused);
    expect(contents()).toEqual(before);
  });
});
