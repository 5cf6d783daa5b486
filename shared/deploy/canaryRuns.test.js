/** @jest-environment node */
// A deploy API carrying on the canaries another API drove (a restart, a lost node), and only those.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { openFolderStore } = require('@nativegtm/store/folderStore');
const { storeLayout } = require('@nativegtm/store/layout');
const { readCanary, writeCanary } = require('@nativegtm/store/canaryInStore');
const { removeFakeBuilds } = require('@nativegtm/store/testing/fakeBuild');
const { liveAndNext } = require('@nativegtm/store/testing/liveAndNext');
const { openFieldRecords } = require('@nativegtm/server/fieldData/fieldRecords');
const { silentLogger } = require('@nativegtm/server/observability/logger');
const { createCanaryRuns } = require('./canaryRuns');
const { createDeployMetrics } = require('./metrics');

/** A pid no process has on this machine (above the kernel's pid_max). */
const GONE = 2 ** 22 + 1;
const settings = { stepTimeMs: 60_000, minViews: 40, maxWaitMs: 60_000 };
const pipeline = { by: 'token 3f9a2c1d0b7e (team jobs)', kind: /** @type {const} */ ('token'), team: 'jobs' };

/** @type {string} */
let dir;
/** @type {ReturnType<typeof openFolderStore>} */
let folder;
/** @type {ReturnType<typeof createCanaryRuns>} */
let canaries;
/** @type {ReturnType<typeof createDeployMetrics>} */
let metrics;
/** @type {import('@nativegtm/server/fieldData/fieldRecords').FieldRecordSource} */
let fieldRecords;
/** @type {string} */
let next;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-canary-runs-'));
  folder = openFolderStore(dir);
  ({ next } = await liveAndNext(folder.remote('jobs')));
  fieldRecords = openFieldRecords({ dir: path.join(dir, 'field-data') });
  metrics = createDeployMetrics();
  canaries = createCanaryRuns({ fieldRecords, logger: silentLogger(), metrics });
});
afterEach(async () => {
  await canaries.stop();
  await fieldRecords.close();
  fs.rmSync(dir, { recursive: true, force: true });
  removeFakeBuilds();
});

const watched = {
  openRemote: (/** @type {string} */ remote, /** @type {import('@nativegtm/store/actor').Actor} */ actor) =>
    folder.remote(remote, { actor }),
  remotes: ['jobs'],
};

/**
 * Starts a canary, then leaves it as a process gone from this machine would: at its share, its lease still running.
 * @param {{ byApi: boolean }} options
 */
async function orphaned({ byApi }) {
  const store = folder.remote('jobs', { actor: pipeline });
  const started = await store.startCanary(next, { steps: [25, 100], settings, gate: null, now: Date.now, byApi });
  const left = { ...started, command: { ...started.command, pid: GONE } };
  writeCanary(storeLayout(dir, 'jobs'), 'jobs', left);
  return left;
}

describe("a deploy API's look for canaries to carry on", () => {
  it("takes over a deploy API's canary whose process is gone, as whoever started it, and drives it", async () => {
    const left = await orphaned({ byApi: true });
    await canaries.look(watched);
    const { canary } = readCanary(storeLayout(dir, 'jobs'));
    expect(canary).toMatchObject({
      id: next,
      share: 25,
      stepStartedAt: left.stepStartedAt,
      command: { host: os.hostname(), pid: process.pid },
      lease: { epoch: 2 },
      api: { actor: pipeline },
    });
    expect(canaries.read('jobs', 0)?.lines).toEqual([
      `jobs: canary of release ${next} carried on at 25 % by the deploy API (pid ${process.pid} on ${os.hostname()}): ` +
        `pid ${GONE} on ${os.hostname()} had stopped driving it`,
    ]);
    const audit = await folder.remote('jobs').audit();
    expect(audit.at(-1)).toMatchObject({ action: 'canary jobs carried on by the deploy API', actor: pipeline });

    // Driven here now: the next look leaves it be.
    await canaries.look(watched);
    expect(readCanary(storeLayout(dir, 'jobs')).canary?.lease?.epoch).toBe(2);
    const scraped = await metrics.registry.metrics();
    expect(scraped).toMatch(/^nativegtm_deploy_canaries_carried_on_total 1$/m);
    expect(scraped).toMatch(/^nativegtm_deploy_canaries_driven 1$/m);
  });

  it('leaves a canary a command runs to that command, or to the operator once it is gone', async () => {
    await orphaned({ byApi: false });
    await canaries.look(watched);
    expect(readCanary(storeLayout(dir, 'jobs')).canary).toMatchObject({ command: { pid: GONE }, lease: { epoch: 1 } });
    expect(canaries.read('jobs', 0)).toBeNull();
    expect(await metrics.registry.metrics()).toMatch(/^nativegtm_deploy_canaries_driven 0$/m);
  });

  it("leaves a deploy API's canary while its lease runs on another machine, or in another container", async () => {
    const left = await orphaned({ byApi: true });
    for (const command of [
      { host: `not-${os.hostname()}`, pid: 4242 },
      // A container with this host name, whose pids are its own: GONE here may run there.
      { ...left.command, space: 'another-boot/pid:[1]' },
    ]) {
      writeCanary(storeLayout(dir, 'jobs'), 'jobs', { ...left, command });
      await canaries.look(watched);
      expect(readCanary(storeLayout(dir, 'jobs')).canary).toMatchObject({ command, lease: { epoch: 1 } });
    }
  });
});
