/** @jest-environment node */
// The release commands on a store whose disk is really full (a small tmpfs, filled): each refuses in one line and
// leaves the store as it was, and the next command works once space is freed.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { itOnSmallDisk, mountSmallDisk } = require('@nativegtm/store/testing/smallDisk');
const { readCanary } = require('@nativegtm/store/canaryInStore');
const { storeLayout } = require('@nativegtm/store/layout');
const { openFolderStore } = require('@nativegtm/store/folderStore');
const { fakeBuild, removeFakeBuilds } = require('@nativegtm/store/testing/fakeBuild');

const COMMANDS = path.join(__dirname, '..', 'commands');
const onSmallDisk = itOnSmallDisk(it, 'the release commands on a full disk');

/** @type {import('@nativegtm/store/testing/smallDisk').SmallDisk | undefined} */
let disk;
afterEach(() => {
  disk?.unmount();
  disk = undefined;
  removeFakeBuilds();
});

/**
 * Runs a release command on the store, as `npm run <command> -- …` does.
 * @param {string} store
 * @param {string} command
 * @param {string[]} args
 */
function run(store, command, args) {
  const result = spawnSync(process.execPath, [path.join(COMMANDS, `${command}.js`), ...args], {
    env: { ...process.env, RELEASES_DIR: store },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * Every name under `dir` (links as where they point), with each file's content: what "the store as it was" means.
 * @param {string} dir
 * @returns {Record<string, string>}
 */
function snapshot(dir) {
  /** @type {Record<string, string>} */
  const files = {};
  for (const name of /** @type {string[]} */ (fs.readdirSync(dir, { recursive: true })).sort()) {
    const file = path.join(dir, name);
    const stat = fs.lstatSync(file);
    files[name] = stat.isSymbolicLink()
      ? `-> ${fs.readlinkSync(file)}`
      : stat.isFile()
        ? fs.readFileSync(file, 'utf8')
        : '(folder)';
  }
  return files;
}

/** @param {string} buildId */
const build = (buildId) => fakeBuild({ buildId, chunk: `${buildId}.0123456789.js` });

/**
 * A store on a small disk with three releases, the second live after the first.
 * @param {import('@nativegtm/store/testing/smallDisk').SmallDisk} disk
 */
function storeOn(disk) {
  const store = path.join(disk.dir, 'releases');
  /** @param {string} command @param {string[]} args */
  const ok = (command, args) => {
    const result = run(store, command, args);
    expect({ command, ...result, stdout: '' }).toMatchObject({ command, status: 0 });
    return result.stdout.trim().split('\n').pop() ?? '';
  };
  const [a, b, c] = ['a', 'b', 'c'].map((id) => ok('release', ['jobs', '--from', build(id)]));
  ok('promote', ['jobs', String(a), '--skip-gate']);
  ok('promote', ['jobs', String(b), '--skip-gate']);
  const refusal =
    `error: the release store at ${path.join(store, 'jobs')} cannot be written: its disk is full (ENOSPC). ` +
    'Nothing was changed; free some space and run the command again.';
  return { store, ok, ids: { a: String(a), b: String(b), c: String(c) }, refusal };
}

/**
 * Expects the command to refuse in one line, the last of its output (--skip-gate warns before it), with no stack.
 * @param {ReturnType<typeof run>} result
 * @param {string} command
 * @param {string} refusal
 */
function expectRefusal(result, command, refusal) {
  expect({ command, status: result.status, last: result.stderr.trimEnd().split('\n').pop() }).toEqual({
    command,
    status: 1,
    last: refusal,
  });
  expect(result.stderr).not.toMatch(/^\s+at /m);
}

onSmallDisk(
  'each command refuses in one line and changes nothing; the next works once space is freed',
  () => {
    disk = mountSmallDisk('2m');
    const { store, ok, ids, refusal } = storeOn(disk);
    const { b, c } = ids;
    const listed = run(store, 'releases', ['jobs']);
    expect(listed).toMatchObject({ status: 0, stdout: expect.stringMatching(new RegExp(`live +${b}`)) });
    const before = snapshot(store);

    disk.fill();
    for (const [command, args] of /** @type {[string, string[]][]} */ ([
      ['release', ['jobs', '--from', build('d')]],
      ['promote', ['jobs', c, '--skip-gate']],
      ['rollback', ['jobs']],
      ['canary', ['jobs', c, '--skip-gate']],
    ])) {
      expectRefusal(run(store, command, args), command, refusal);
      expect(snapshot(store)).toEqual(before);
    }
    // Reading needs no space.
    expect(run(store, 'releases', ['jobs'])).toEqual(listed);
    expect(run(store, 'preview', ['jobs', c])).toMatchObject({ status: 0 });

    disk.free();
    ok('promote', ['jobs', c, '--skip-gate']);
    expect(fs.readlinkSync(path.join(store, 'jobs', 'live'))).toBe(c);
    ok('rollback', ['jobs']);
    expect(fs.readlinkSync(path.join(store, 'jobs', 'live'))).toBe(b);
    ok('release', ['jobs', '--from', build('d')]);
  },
  120_000,
);

onSmallDisk(
  'with room for the lock only, a publish or a promote refuses past it and changes nothing',
  () => {
    disk = mountSmallDisk('2m');
    const { store, ok, ids, refusal } = storeOn(disk);
    const before = snapshot(store);

    // One page: the lock's holder file takes it, the release's files or the gate's result find none.
    disk.fill(4096);
    expectRefusal(run(store, 'release', ['jobs', '--from', build('d')]), 'release', refusal);
    expect(snapshot(store)).toEqual(before);
    expectRefusal(run(store, 'promote', ['jobs', ids.c, '--skip-gate']), 'promote', refusal);
    expect(snapshot(store)).toEqual(before);

    disk.free();
    ok('promote', ['jobs', ids.c, '--skip-gate']);
    expect(fs.readlinkSync(path.join(store, 'jobs', 'live'))).toBe(ids.c);
  },
  120_000,
);

onSmallDisk(
  'an abort needs room for the lock only: ending the canary frees more than its record takes',
  async () => {
    disk = mountSmallDisk('2m');
    const { store, ids, refusal } = storeOn(disk);
    const layout = storeLayout(store, 'jobs');
    const settings = { stepTimeMs: 60_000, minViews: 40, maxWaitMs: 60_000 };
    await openFolderStore(store)
      .remote('jobs')
      .startCanary(ids.c, { steps: [50, 100], settings, gate: null, now: Date.now });

    disk.fill();
    expectRefusal(run(store, 'canary', ['jobs', '--abort']), 'canary --abort', refusal);
    expect(readCanary(layout).canary).toMatchObject({ id: ids.c, share: 50 });

    disk.free();
    disk.fill(4096);
    expect(run(store, 'canary', ['jobs', '--abort'])).toMatchObject({ status: 0 });
    expect(readCanary(layout)).toEqual({});
    expect(fs.readFileSync(layout.canaryHistory, 'utf8')).toMatch(/"outcome":"aborted"/);
  },
  120_000,
);
