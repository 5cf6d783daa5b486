/** @jest-environment node */
// The release commands as a team's pipeline runs them with `--to`: no store on its machine, only the API's URL and a
// token, and the same lines and exit codes as where the store is. Two teams at once, each reaching only its remote.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { repoRoot } = require('@nativegtm/server/deployables');
const { fakeBuild, removeFakeBuilds } = require('@nativegtm/store/testing/fakeBuild');
const { startDeployApi } = require('./deployServer');
const { testApiConfig } = require('./testing/apiConfig');
const { makeToken } = require('./tokens/deployTokens');
const { deployPaths } = require('@nativegtm/contract/deployApi');
const { openDatabase } = require('@nativegtm/store/postgres/database');
const { openFolderStore } = require('@nativegtm/store/folderStore');
const { openPostgresStore } = require('@nativegtm/store/postgres/postgresStore');
const { startStoreServices } = require('@nativegtm/store/testing/storeServices');
const { folderTokenStore, postgresTokenStore } = require('./tokens/tokenStore');

jest.setTimeout(60_000);

/** @type {string} */
let storeDir;
/** @type {string} */
let pipeline;
/** @type {Awaited<ReturnType<typeof startDeployApi>>} */
let api;

/**
 * A token for `remote`, as the operator's command makes it.
 * @param {string} remote
 * @param {import('@nativegtm/contract/deployApi').DeployAction[]} actions
 */
async function tokenFor(remote, actions) {
  const { token, record } = makeToken({
    remote,
    actions,
    team: `${remote}-team`,
    expires: new Date(Date.now() + 86_400_000),
    createdBy: 'operator@test',
  });
  await backend.tokens.add(record);
  return { token, id: record.id };
}

/**
 * `node shared/tools/commands/<command>.js <args> --to <the API>` with `token`, as a pipeline runs it: its store
 * (RELEASES_DIR) is a folder that does not exist on its machine.
 * @param {string} command
 * @param {string[]} args
 * @param {string} token
 * @param {string} [to] the API's URL (this test's unless given)
 * @returns {Promise<{ status: number | null, stdout: string, stderr: string }>}
 */
function run(command, args, token, to = `http://127.0.0.1:${api.port}`) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [`shared/tools/commands/${command}.js`, ...args, '--to', to], {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        RELEASES_DIR: path.join(pipeline, 'no-store-here'),
        NATIVEGTM_DEPLOY_TOKEN: token,
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/**
 * Releases two fake builds of jobs through the API and promotes the first, as a canary test starts.
 * @param {string} token one that may publish, promote and skip the gate
 * @param {[string, string]} buildIds
 * @returns {Promise<string>} the id of the second, not live
 */
async function liveAndNext(token, buildIds) {
  const [live = '', next = ''] = await Promise.all(
    buildIds.map(async (buildId) => {
      const built = fakeBuild({ buildId, chunk: `${buildId}.0123456789.js` });
      return (await run('release', ['jobs', '--from', built], token)).stdout.trim().split('\n').at(-1);
    }),
  );
  expect((await run('promote', ['jobs', live, '--skip-gate'], token)).status).toBe(0);
  return next;
}

/**
 * @typedef {{ config: Parameters<typeof testApiConfig>[0], tokens: import('./tokens/tokenStore').TokenStore,
 *   releasesOf: (remote: string) => Promise<unknown[]>, dispose: () => Promise<void> }} Backend
 */

/**
 * The store the API serves, on each backend: a folder, or PostgreSQL with its files in object storage (a real server
 * and s3rver, started here).
 * @type {{ folder: () => Promise<Backend>, postgres: () => Promise<Backend> }}
 */
const backends = {
  folder: async () => {
    storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-api-store-'));
    return {
      config: { storeDir },
      tokens: folderTokenStore(storeDir),
      releasesOf: async (remote) => (await openFolderStore(storeDir).remote(remote).releases()).releases,
      dispose: async () => fs.rmSync(storeDir, { recursive: true, force: true }),
    };
  },
  postgres: async () => {
    const services = await startStoreServices({ S3rver: require('s3rver') });
    const databaseUrl = await services.postgres.migratedDatabase('deploy');
    const bucketUrl = `s3://${services.storage.bucket}/deploy`;
    const store = openPostgresStore({ databaseUrl, bucketUrl });
    const database = openDatabase(databaseUrl);
    return {
      config: { DATABASE_URL: databaseUrl, RELEASES_BUCKET: bucketUrl },
      tokens: postgresTokenStore(database, 'the database'),
      releasesOf: async (remote) => (await store.remote(remote).releases()).releases,
      // The database closes with its token store.
      dispose: async () => {
        await store.close();
        await services.stop();
      },
    };
  },
};

/** @type {Backend} */
let backend;

describe.each(/** @type {const} */ (['folder', 'postgres']))(
  'the release commands through the API, on the %s store',
  (name) => {
    beforeAll(async () => {
      backend = await backends[name]();
      pipeline = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-pipeline-'));
      api = await startDeployApi(testApiConfig(backend.config));
    });

    afterAll(async () => {
      await api?.close();
      await backend?.tokens.close();
      await backend?.dispose();
      fs.rmSync(pipeline, { recursive: true, force: true });
      removeFakeBuilds();
    });

    it('releases, previews, promotes, lists and rolls back through the API, printing what the commands print', async () => {
      const { token, id: tokenId } = await tokenFor('jobs', ['publish', 'preview', 'promote', 'skip-gate', 'rollback']);
      const published = await Promise.all(
        ['a', 'b'].map((buildId) =>
          run('release', ['jobs', '--from', fakeBuild({ buildId, chunk: `${buildId}.0123456789.js` })], token),
        ),
      );
      const [a = '', b = ''] = published.map((result) => {
        expect(result.status).toBe(0);
        expect(result.stdout).toMatch(
          /^jobs: published release [0-9a-f]{16} from .+ in http:\/\/127\.0\.0\.1:\d+ \(the deploy API\)\. /m,
        );
        return result.stdout.trim().split('\n').at(-1) ?? '';
      });
      // The same files again: the same release.
      const again = await run(
        'release',
        ['jobs', '--from', fakeBuild({ buildId: 'a', chunk: 'a.0123456789.js' })],
        token,
      );
      expect(again.stdout).toContain(`jobs: these files are already release ${a} (nothing published).`);

      const preview = await run('preview', ['jobs', a], token);
      expect(preview.status).toBe(0);
      expect(preview.stdout.trim().split('\n').at(-1)).toMatch(new RegExp(`/_preview/jobs/${a}`));

      for (const id of [a, b]) {
        const promoted = await run('promote', ['jobs', id, '--skip-gate'], token);
        expect(promoted.status).toBe(0);
        expect(promoted.stderr).toMatch(/^WARNING: --skip-gate/);
      }
      const rolledBack = await run('rollback', ['jobs'], token);
      expect(rolledBack).toMatchObject({ status: 0, stdout: `jobs: release ${a} is live again (was ${b}).\n` });

      const listed = await run('releases', ['jobs'], token);
      expect(listed.status).toBe(0);
      expect(listed.stdout).toMatch(new RegExp(`^live +${a} .* token ${tokenId} \\(team jobs-team\\)`, 'm'));
      expect(listed.stdout).toMatch(
        new RegExp(
          `^who changed what \\(newest first\\):\\n {2}\\S+ {2}rollback jobs {2}by token ${tokenId} \\(team jobs-team\\) from 127\\.0\\.0\\.1$`,
          'm',
        ),
      );
      // Nothing was written where the pipeline runs.
      expect(fs.existsSync(path.join(pipeline, 'no-store-here'))).toBe(false);
    });

    it('lets two teams release at once, each reaching only its own remote', async () => {
      const jobs = await tokenFor('jobs', ['publish']);
      const candidates = await tokenFor('candidates', ['publish']);
      const [own, mine, theirs] = await Promise.all([
        run('release', ['jobs', '--from', fakeBuild({ buildId: 'j2', chunk: 'j2.0123456789.js' })], jobs.token),
        run('release', ['candidates', '--from', fakeBuild({ remote: 'candidates', buildId: 'c1' })], candidates.token),
        run('release', ['candidates', '--from', fakeBuild({ remote: 'candidates', buildId: 'c2' })], jobs.token),
      ]);
      expect(own.status).toBe(0);
      expect(mine.status).toBe(0);
      expect(theirs).toMatchObject({
        status: 1,
        stderr: `error: token ${jobs.id} may not publish candidates (it reaches no action of candidates)\n`,
      });
      expect(await backend.releasesOf('candidates')).toHaveLength(1);
    });

    it('drives a canary the pipeline starts: followed to its end, or left running (--detach) and read with --status', async () => {
      const release = await tokenFor('jobs', ['publish', 'promote', 'skip-gate']);
      const pipelineToken = await tokenFor('jobs', ['canary', 'skip-gate', 'abort']);
      const onCall = await tokenFor('jobs', ['abort']);
      const next = await liveAndNext(release.token, ['c1', 'c2']);
      const steps = ['--skip-gate', '--steps', '50,100', '--lease', '3s'];

      // Followed: the API's step lines, then its end, as where the store is (no views here: no verdict).
      const followed = await run(
        'canary',
        ['jobs', next, ...steps, '--step-time', '1s', '--max-wait', '1s'],
        pipelineToken.token,
      );
      expect(followed.stdout).toMatch(
        new RegExp(`^jobs: canary of release ${next} started at 50 % \\(steps 50, 100; 1s each; a control group`),
      );
      expect(followed.stdout).toMatch(/^ 50 % {2}0 views vs 0 on live .*→ no-verdict: /m);
      expect(followed).toMatchObject({ status: 1 });
      expect(followed.stderr).toMatch(/^error: ended without a verdict at 50 %, everyone is on live: /);

      // Left to the API: the command leaves, the canary goes on.
      const detached = await run(
        'canary',
        ['jobs', next, ...steps, '--step-time', '1m', '--detach'],
        pipelineToken.token,
      );
      expect(detached.status).toBe(0);
      expect(detached.stdout).toMatch(/the deploy API drives it; npm run canary -- jobs --status --to http/);
      const status = await run('canary', ['jobs', '--status'], onCall.token);
      expect(status.status).toBe(0);
      expect(status.stdout).toMatch(new RegExp(`^jobs: canary of release ${next} at 50 % \\(control 50 % on live\\)`));
      expect(status.stdout).toMatch(new RegExp(`^  its command: pid ${process.pid} on .+, running$`, 'm'));

      // The pipeline's token revoked meanwhile: the canary goes on, driven by the API, out of that token's reach.
      await backend.tokens.revoke(pipelineToken.id, new Date());
      const revoked = await run('canary', ['jobs', '--abort'], pipelineToken.token);
      expect(revoked).toMatchObject({ status: 1, stderr: expect.stringMatching(/^error: .*revoked/) });
      await new Promise((resolve) => setTimeout(resolve, 3500));
      const still = await run('canary', ['jobs', '--status'], onCall.token);
      expect(still.stdout).toMatch(new RegExp(`^jobs: canary of release ${next} at 50 %`));
      // Past its lease of 3 s: the API renews it as it drives.
      expect(still.stdout).toMatch(/^ {2}its lease runs \d+s more$/m);

      const aborted = await run('canary', ['jobs', '--abort'], onCall.token);
      expect(aborted).toMatchObject({
        status: 0,
        stdout: `jobs: canary of release ${next} aborted; everyone is on live.\n`,
      });
      const listed = await run('releases', ['jobs'], onCall.token);
      expect(listed.stdout).toMatch(
        new RegExp(`canary jobs --abort {2}by token ${onCall.id} \\(team jobs-team\\) from 127\\.0\\.0\\.1$`, 'm'),
      );
    });

    it('carries on the canary it drove after a restart, as the credential that started it, still followed', async () => {
      const release = await tokenFor('jobs', ['publish', 'promote', 'skip-gate']);
      const pipelineToken = await tokenFor('jobs', ['canary', 'skip-gate']);
      const onCall = await tokenFor('jobs', ['abort']);
      const next = await liveAndNext(release.token, ['r1', 'r2']);
      /** The run the API answers a follower, once it has one of this canary. */
      const runOnApi = async () => {
        for (;;) {
          // A kept-alive connection to the API before its restart fails once: asked again on a new one.
          const answer = await fetch(`http://127.0.0.1:${api.port}${deployPaths.canaryRun('jobs', 0)}`, {
            headers: { authorization: `Bearer ${onCall.token}` },
          })
            .then((response) => response.json())
            .catch(() => ({ run: null }));
          const { run } = /** @type {{ run: import('@nativegtm/contract/deployApi').CanaryRun | null }} */ (answer);
          if (run?.id === next) return run;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      };
      // A pipeline follows it; a step long enough that nothing but the restart happens to it here.
      const options = ['--skip-gate', '--steps', '50,100', '--lease', '2s', '--step-time', '10m'];
      const following = run('canary', ['jobs', next, ...options], pipelineToken.token);
      expect((await runOnApi()).epoch).toBe(1);
      const before = await run('canary', ['jobs', '--status'], onCall.token);
      expect(before.stdout).toMatch(
        new RegExp(`^ {2}driven by the deploy API, as token ${pipelineToken.id} \\(team jobs-team\\)$`, 'm'),
      );

      // A restart on the same port: the API's loop ends at its wait, the canary stays at 50 % with its lease no longer
      // renewed; the API started again takes it over once that lease ran out (this process, alive, holds it till then).
      const { port } = api;
      await api.close();
      api = await startDeployApi(testApiConfig({ ...backend.config, DEPLOY_API_PORT: port }));
      const carried = await runOnApi();
      expect(carried.epoch).toBe(2);
      expect(carried.lines).toEqual([
        expect.stringMatching(
          new RegExp(
            `^jobs: canary of release ${next} carried on at 50 % by the deploy API \\(pid ${process.pid} on .+\\): ` +
              `pid ${process.pid} on .+ had stopped driving it$`,
          ),
        ),
      ]);
      // Still the deploy API's, as the same token: another restart would carry it on again.
      const after = await run('canary', ['jobs', '--status'], onCall.token);
      expect(after.stdout).toMatch(new RegExp(`^jobs: canary of release ${next} at 50 %`));
      expect(after.stdout).toMatch(
        new RegExp(`^ {2}driven by the deploy API, as token ${pipelineToken.id} \\(team jobs-team\\)$`, 'm'),
      );
      // Taken over as the token that started it, which the audit names.
      const listed = await run('releases', ['jobs'], onCall.token);
      expect(listed.stdout).toMatch(
        new RegExp(`canary jobs carried on by the deploy API {2}by token ${pipelineToken.id} \\(team jobs-team\\)`),
      );

      // The pipeline's command followed it across the restart, to its end (aborted here by the person on call).
      expect((await run('canary', ['jobs', '--abort'], onCall.token)).status).toBe(0);
      const followed = await following;
      // Whether it found the API away in between depends on when it looked (deployCanary.test.js has both).
      expect(followed.stdout).toContain(carried.lines[0]);
      expect(followed).toMatchObject({
        status: 1,
        stderr: expect.stringMatching(
          new RegExp(`^error: the canary of release ${next} was ended (or taken over )?by`),
        ),
      });
    });

    it("refuses a canary's wrong options as the command does, before the gate and with nothing changed", async () => {
      const { token } = await tokenFor('jobs', ['canary']);
      const local = await run('canary', ['jobs', '0123456789abcdef', '--steps', '50,20'], token);
      expect(local.status).toBe(2);
      expect(local.stderr).toMatch(/^error: --steps must be increasing percents ending at 100/);
      // What a client other than the command could send: the API reads the option texts with the command's rules.
      const answer = await fetch(`http://127.0.0.1:${api.port}/v1/remotes/jobs/canary`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ id: '0123456789abcdef', options: { 'step-time': '5 minutes', unknown: 'x' } }),
      });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({ error: 'a canary takes no option "unknown"' });
    });

    it('prints the refusal in one line and exits 1 when the credential is refused, or the API cannot be reached', async () => {
      const refused = await run('releases', ['jobs'], 'ngd_000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
      expect(refused).toMatchObject({ status: 1, stderr: 'error: the token is not one this API made\n' });
      // A port nothing listens on.
      const closed = await new Promise((resolve) => {
        const server = net.createServer().listen(0, '127.0.0.1', () => {
          const { port } = /** @type {net.AddressInfo} */ (server.address());
          server.close(() => resolve(port));
        });
      });
      const unreachable = await run('rollback', ['jobs'], 'x', `http://127.0.0.1:${closed}`);
      expect(unreachable).toMatchObject({
        status: 1,
        stderr: `error: the deploy API at http://127.0.0.1:${closed} cannot be reached (ECONNREFUSED); nothing was changed\n`,
      });
      const usage = await run('rollback', ['jobs'], 'x', 'http://deploy.example');
      expect(usage.status).toBe(2);
      expect(usage.stderr).toMatch(/^error: --to must be an https:\/\/ URL \(http only to this machine\)/);
    });
  },
);
