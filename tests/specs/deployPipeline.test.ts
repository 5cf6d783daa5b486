import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { startStoreServices } from '@nativegtm/store/testing/storeServices';
import { startDeployApi } from '../support/deployApi';
import { npmRun } from '../support/releaseCommands';
import { scratchCopy } from '../support/scratchCopy';
import { ports as testPorts } from '../support/site';

// A team's pipeline as docs/releasing-from-ci.md writes it: a fresh copy of the repository, `npm install`, then
// `npm run release` and `npm run promote` through the deploy API, with the API's URL and a token and nothing else (no
// store, no database, none of the operator's variables). The API runs where the store is, on each backend, started
// and given its token by the operator's own commands. (The API's refusals, limits and canaries: shared/deploy.)

jest.setTimeout(10 * 60_000);

// Ports B+266..B+269, the API and its metrics on each backend: see the port plan in tests/support/testSite.js.
const apiPort = { folder: testPorts.shell! + 266, postgres: testPorts.shell! + 268 };

let pipeline: ReturnType<typeof scratchCopy>;
beforeAll(() => {
  pipeline = scratchCopy('pipeline');
});
afterAll(() => pipeline?.remove());

/** `npm run <script> -- <args>` in the pipeline's copy, with what a CI job has: PATH, HOME and the token. */
function inPipeline(script: string, args: string[], token: string) {
  return new Promise<{ status: number | null; stdout: string; stderr: string; lastLine: string }>((resolve) => {
    const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
      cwd: pipeline.dir,
      env: { PATH: process.env.PATH!, HOME: process.env.HOME!, NATIVEGTM_DEPLOY_TOKEN: token },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('close', (status) =>
      resolve({ status, stdout, stderr, lastLine: stdout.trimEnd().split('\n').at(-1) ?? '' }),
    );
  });
}

/** The operator's store on each backend: its variables, for the API and the token command, and how to stop it. */
const backends = {
  folder: async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nativegtm-pipeline-store-'));
    return { env: { RELEASES_DIR: dir }, stop: async () => rmSync(dir, { recursive: true, force: true }) };
  },
  postgres: async () => {
    const services = await startStoreServices({ S3rver });
    const databaseUrl = await services.postgres.migratedDatabase('pipeline');
    return {
      env: { DATABASE_URL: databaseUrl, RELEASES_BUCKET: `s3://${services.storage.bucket}/pipeline` },
      stop: () => services.stop(),
    };
  },
};

describe.each(['folder', 'postgres'] as const)('a team pipeline, the store on %s', (backend) => {
  let store: Awaited<ReturnType<(typeof backends)[typeof backend]>>;
  let api: Awaited<ReturnType<typeof startDeployApi>>;
  beforeAll(async () => {
    store = await backends[backend]();
    api = await startDeployApi(store.env, apiPort[backend]);
  });
  afterAll(async () => {
    await api?.stop();
    await store?.stop();
  });

  it('builds and releases its page, then promotes it through the gate, with a token and the URL only', async () => {
    const made = await npmRun(
      'deploy-tokens',
      ['create', '--remote', 'jobs', '--can', 'publish,promote', '--team', 'jobs'],
      store.env,
    );
    expect(made.status).toBe(0);
    const token = made.lastLine;

    const released = await inPipeline('release', ['jobs', '--to', api.url], token);
    expect(released.stderr).toMatch(/^Building jobs-mfe \(production\)/);
    expect(released.status).toBe(0);
    expect(released.lastLine).toMatch(/^[0-9a-f]{16}$/);
    const promoted = await inPipeline('promote', ['jobs', released.lastLine, '--to', api.url], token);
    expect(promoted.status).toBe(0);
    expect(promoted.stderr).toContain('✓ hydration');
    expect(promoted.stdout).toBe(`jobs: release ${released.lastLine} is live.\n`);

    const listed = await inPipeline('releases', ['jobs', '--to', api.url], token);
    expect(listed.stdout).toMatch(new RegExp(`^live +${released.lastLine} .* token \\w+ \\(team jobs\\)`, 'm'));
    // Its token reaches nothing else.
    const other = await inPipeline('rollback', ['jobs', '--to', api.url], token);
    expect(other).toMatchObject({
      status: 1,
      stderr: expect.stringMatching(/^error: token \w+ may not rollback jobs/),
    });
    // And nothing of the store is where the pipeline runs.
    expect(existsSync(join(pipeline.dir, 'releases'))).toBe(false);
  });
});
