import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import S3rver from 's3rver';
import { pages } from '@nativegtm/contract/pages';
import { deployables } from '@nativegtm/server/deployables';
import { recordMaker } from '@nativegtm/server/fieldData/recordFixtures';
import { createRecordWriter } from '@nativegtm/server/fieldData/recordStore';
import { createPostgresRecordWriter } from '@nativegtm/server/fieldData/postgresRecords';
import { openDatabase } from '@nativegtm/store/postgres/database';
import { startStoreServices } from '@nativegtm/store/testing/storeServices';
import { openPostgresStore } from '@nativegtm/store/postgres/postgresStore';
import { eventually } from '../support/eventually';
import { npmRun } from '../support/releaseCommands';
import { startNpmStart } from '../support/npmStart';
import { ports as testPorts } from '../support/site';

// The release commands on both stores, the folder and PostgreSQL with object storage: the same commands print the same
// and exit the same. Then a node serving a copy of the store on PostgreSQL, and two machines promoting at once.

jest.setTimeout(300_000);

// Ports B+202..B+206 and its metrics B+207 (a node of the store on PostgreSQL): see tests/support/testSite.js.
const NODE_BASE = testPorts.shell! + 202;
const jobs = deployables.find((d) => d.remote === 'jobs')!;

let services: Awaited<ReturnType<typeof startStoreServices>>;
let postgres: typeof services.postgres;
let storage: typeof services.storage;
let scratch: string;
let database: Record<string, string>;
const builds = { a: '', b: '' };

beforeAll(async () => {
  services = await startStoreServices({ S3rver });
  ({ postgres, storage } = services);
  scratch = mkdtempSync(join(tmpdir(), 'nativegtm-store-backends-'));
  database = {
    ...storage.env,
    DATABASE_URL: await postgres.migratedDatabase('commands'),
    RELEASES_BUCKET: `s3://${storage.bucket}/commands`,
    RELEASES_DIR: join(scratch, 'node-copy'),
  };
  builds.a = join(jobs.dir, 'dist');
  builds.b = join(scratch, 'b');
  cpSync(builds.a, builds.b, { recursive: true });
  writeFileSync(join(builds.b, 'index.html'), `${readFileSync(join(builds.a, 'index.html'), 'utf8')}<!-- b -->\n`);
});

afterAll(async () => {
  await services?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** What a person sees of a command: its exit code and its lines, with times and where the stores are made alike. */
function seen(
  { status, stdout, stderr }: { status: number | null; stdout: string; stderr: string },
  where: string,
  fieldData = '<field data>',
) {
  const alike = (text: string) =>
    text
      .replaceAll(where, '<store>')
      .replaceAll(fieldData, '<field data>')
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z/g, '<time>')
      .replace(/\d{4}-\d\d-\d\d \d\d:\d\d UTC/g, '<time>')
      .replace(/\/_preview\/[^\s]+/g, '/_preview/<link>')
      .trimEnd()
      .split('\n');
  return { status, stdout: alike(stdout), stderr: alike(stderr) };
}

/** A team's session with the commands, on the store `env` says, as it printed; its field data is `fieldData`. */
async function session(env: Record<string, string>, where: string, fieldData: string) {
  const run = async (script: string, args: string[]) => ({
    command: `${script} ${args.join(' ')}`,
    ...seen(await npmRun(script, args, env), where, fieldData),
  });
  const a = await npmRun('release', ['jobs', '--from', builds.a], env);
  const b = await npmRun('release', ['jobs', '--from', builds.b], env);
  const [idA, idB] = [a.lastLine, b.lastLine];
  return [
    seen(a, where),
    seen(b, where),
    await run('release', ['jobs', '--from', builds.a]),
    await run('releases', ['jobs']),
    await run('promote', ['jobs', idA, '--skip-gate']),
    await run('promote', ['jobs', idB, '--skip-gate']),
    await run('promote', ['jobs', '0123456789abcdef', '--skip-gate']),
    await run('rollback', ['jobs']),
    await run('preview', ['jobs', idB]),
    await run('canary', ['jobs', '--status']),
    await run('canary', ['jobs', '--abort']),
    await run('releases', ['jobs']),
    await run('vitals', ['jobs']),
  ];
}

/** The same visitors' records for both stores: a quarter of an hour ago, three views of the jobs page and their LCPs. */
function visitorsRecords() {
  const { view, vital } = recordMaker({
    t: Date.now() - 15 * 60_000,
    route: pages.find((page) => page.remote === 'jobs')!.route,
    remote: 'jobs',
  });
  return [1800, 2600, 4200].flatMap((lcp) => [view(), vital('LCP', lcp)]);
}

it('prints and exits the same on the folder and on PostgreSQL with object storage', async () => {
  const folder = { RELEASES_DIR: join(scratch, 'folder'), FIELD_DATA_DIR: join(scratch, 'field-data') };
  const records = visitorsRecords();
  const folderWriter = createRecordWriter({ dir: folder.FIELD_DATA_DIR });
  folderWriter.write(records);
  folderWriter.flush();
  const fieldDatabase = openDatabase(database.DATABASE_URL!);
  try {
    const databaseWriter = createPostgresRecordWriter({ database: fieldDatabase });
    databaseWriter.write(records);
    await databaseWriter.flush();
  } finally {
    await fieldDatabase.close();
  }
  const onFolder = await session(folder, join(scratch, 'folder'), folder.FIELD_DATA_DIR);
  const { host, pathname } = new URL(database.DATABASE_URL!);
  const onDatabase = await session(
    database,
    `s3://${storage.bucket}/commands`,
    `the database ${pathname.slice(1)} on ${host}`,
  );
  expect(onDatabase).toEqual(onFolder);
  // Both read the visitors' records: three views, and their LCP's p75.
  expect(onFolder.at(-1)?.stdout.join('\n')).toMatch(/Field data for jobs .*, 3 views, from <field data>:/);
  // The session did what it says: a release live, another previous, each change by someone.
  expect(onDatabase.at(-2)?.stdout.join('\n')).toMatch(/live\s+[0-9a-f]{16}/);
  expect(onFolder.map((step) => step.status)).toEqual([0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0]);
});

it('refuses a store half on a database, in one line', async () => {
  const half = { DATABASE_URL: database.DATABASE_URL!, RELEASES_DIR: join(scratch, 'half') };
  const result = await npmRun('releases', ['jobs'], half);
  expect(result.status).toBe(1);
  expect(result.stderr.trim().split('\n')).toEqual([
    'Invalid environment:',
    '  RELEASES_BUCKET: must be set with DATABASE_URL (a store on PostgreSQL keeps its files in a bucket)',
  ]);
});

it('refuses a change while the database is down, in one line', async () => {
  postgres.stop();
  try {
    for (const [script, args] of [
      ['canary', ['jobs', '--abort']],
      ['promote', ['jobs', '0123456789abcdef', '--skip-gate']],
    ] as const) {
      const result = await npmRun(script, [...args], database);
      expect(result.status).toBe(1);
      expect(result.stderr.trimEnd().split('\n').at(-1)).toMatch(
        /^error: the store's database cannot be reached \([^)]+\); nothing was changed$/,
      );
    }
  } finally {
    postgres.start();
  }
});

it('lets one of two promotes from two machines through, round after round; the other names the winner', async () => {
  const env = {
    ...database,
    DATABASE_URL: await postgres.migratedDatabase('race'),
    RELEASES_BUCKET: `s3://${storage.bucket}/race`,
  };
  const a = (await npmRun('release', ['jobs', '--from', builds.a], env)).lastLine;
  const b = (await npmRun('release', ['jobs', '--from', builds.b], env)).lastLine;
  const rounds = 20;
  for (let round = 0; round < rounds; round += 1) {
    // Each round promotes the release that is not live, from two processes at once.
    const target = round % 2 === 0 ? a : b;
    const results = await Promise.all([1, 2].map(() => npmRun('promote', ['jobs', target, '--skip-gate'], env)));
    const lost = results.filter((result) => result.status !== 0);
    // Both pass only when the second began after the first's commit: it then changed nothing.
    expect(lost.length).toBeLessThanOrEqual(1);
    for (const result of lost) {
      expect(result.stderr.trimEnd().split('\n').at(-1)).toMatch(
        new RegExp(
          `^error: jobs's releases changed while "promote jobs ${target}" ran: "promote jobs ${target}" by \\S+ at ` +
            '\\S+ came first\\. Nothing was changed\\.$',
        ),
      );
    }
  }
  // One change per round, whoever made it: none lost, none twice.
  const store = openPostgresStore({ databaseUrl: env.DATABASE_URL, bucketUrl: env.RELEASES_BUCKET });
  const changes = await store.remote('jobs').changes();
  await store.close();
  expect(changes.map((change) => change.id)).toEqual(
    Array.from({ length: rounds }, (_, round) => (round % 2 === 0 ? a : b)),
  );
  // How often the two met between a read and a commit depends on the machine; the store's own test
  // (shared/store/remoteStore.test.js) makes them meet every time.
});

it('serves a copy of the store on PostgreSQL: ready once it has one, and a promote reaches it', async () => {
  const env = {
    ...database,
    DATABASE_URL: await postgres.migratedDatabase('node'),
    RELEASES_BUCKET: `s3://${storage.bucket}/node`,
    RELEASES_DIR: join(scratch, 'node'),
    FIELD_DATA_SECRET: 'a-secret-of-at-least-32-characters!!',
  };
  const a = (await npmRun('release', ['jobs', '--from', builds.a], env)).lastLine;
  const b = (await npmRun('release', ['jobs', '--from', builds.b], env)).lastLine;
  expect((await npmRun('promote', ['jobs', a, '--skip-gate'], env)).status).toBe(0);
  const node = await startNpmStart({ base: NODE_BASE, metricsPort: NODE_BASE + 5, workers: 1, env });
  try {
    const readyz = async () => {
      const response = await fetch(`http://127.0.0.1:${NODE_BASE}/readyz`);
      return { status: response.status, body: await response.json() };
    };
    await node.line('store copy synced');
    expect(await readyz()).toMatchObject({
      status: 200,
      body: { ready: true, store: { present: true, stale: false } },
    });
    const page = async () => (await fetch(`http://127.0.0.1:${node.ports['jobs-mfe']}/index.html`)).text();
    expect(await page()).not.toContain('<!-- b -->');
    expect((await npmRun('promote', ['jobs', b, '--skip-gate'], env)).status).toBe(0);
    const started = performance.now();
    while (!(await page()).includes('<!-- b -->')) {
      if (performance.now() - started > 10_000) throw new Error('the promote never reached the node');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // The node names the revision it serves: the database's, once its readiness has read its copy again.
    const client = new Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    const revision = String((await client.query('SELECT max(revision) AS revision FROM remotes')).rows[0].revision);
    await client.end();
    await eventually(
      async () => (await readyz()).body.store,
      (store) => store.revision === revision && store.stale === false,
      { what: "the node's copy" },
    );
    const metrics = await (await fetch(`http://127.0.0.1:${NODE_BASE + 5}/metrics`)).text();
    expect(metrics).toMatch(new RegExp(`^nativegtm_store_revision ${revision}$`, 'm'));
    expect(metrics).toMatch(/^nativegtm_store_stale 0$/m);
  } finally {
    await node.stop();
  }
});
