#!/usr/bin/env node
// `npm run bench:many-nodes`: the topology of docs/many-nodes.md (three built-in nodes and an nginx node behind
// HAProxy, the store on PostgreSQL and s3rver), and how soon a change reaches every node: MANY_NODES_PROMOTES (50)
// promotes with --skip-gate, alternating between two builds of the jobs page, each timed from the command's exit
// until every node's copy names it live, and until every node's documents carry it. Then documents/s of one node
// serving its copy of the store on PostgreSQL against the same node on a folder store, alternating, as a ratio from
// one run. Then field data: beacons of five records each posted through HAProxy as fast as the nodes take them for
// LOAD_SECONDS, and the records a second that reach the database, from the load's start until the last of them is
// there. Prints a table with the budgets (docs/many-nodes.md).
//
// Ports: MANY_NODES_PORT_BASE (5400: HAProxy, then each node on the 10 ports after; the folder node on base + 60).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const autocannon = require('autocannon');
const { FIELD_DATA_PATH } = require('@nativegtm/contract/fieldData');
const { pages } = require('@nativegtm/contract/pages');
const { openDatabase } = require('@nativegtm/store/postgres/database');
const { deployables } = require('@nativegtm/server/deployables');
const { buildIfNeeded } = require('@nativegtm/tools/buildIfNeeded');
const { buildRemote } = require('../support/buildRemote');
const { npmRun } = require('../support/releaseCommands');
const { startNpmStart } = require('../support/npmStart');
const { startTopology, untilEveryCopy, untilEveryDocument } = require('../support/topology');
const { textTable } = require('./report/renderText');

const promotes = Number(process.env.MANY_NODES_PROMOTES || 50);
const base = Number(process.env.MANY_NODES_PORT_BASE || 5400);
const LOAD_SECONDS = 10;
const jobs = /** @type {import('@nativegtm/server/deployables').Deployable} */ (
  deployables.find((d) => d.remote === 'jobs')
);
const route = /** @type {{ route: string }} */ (pages.find((page) => page.remote === 'jobs')).route;

/**
 * The value at `share` (0-1) of the sorted values.
 * @param {number[]} values
 * @param {number} share
 */
function quantile(values, share) {
  const sorted = [...values].sort((a, b) => a - b);
  return /** @type {number} */ (sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]);
}

/**
 * Documents/s of the jobs page from the server on `port`, for LOAD_SECONDS.
 * @param {number} port
 */
async function documentsPerSecond(port) {
  const result = await autocannon({ url: `http://127.0.0.1:${port}${route}`, connections: 16, duration: LOAD_SECONDS });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`port ${port}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

/** A beacon of one view of the jobs page with four vitals: five records. */
const beacon = JSON.stringify({
  v: 1,
  first: true,
  view: { seq: 0, route, remote: 'jobs', build: 'bench', nav: 'document', device: 'desktop' },
  vitals: ['LCP', 'FCP', 'TTFB', 'INP'].map((name) => ({ name, value: 1200 })),
  errors: [],
});
const RECORDS_PER_BEACON = 5;

/**
 * Field-data records a second into the database: beacons through `origin` for LOAD_SECONDS, then until every
 * accepted beacon's records are there (or 30 s more). Resolves to the rate and what was lost.
 * @param {string} origin
 * @param {string} databaseUrl
 */
async function recordsPerSecond(origin, databaseUrl) {
  const database = openDatabase(databaseUrl);
  const since = Date.now();
  const count = () =>
    database.transaction(async (client) => {
      const { rows } = await client.query(
        `SELECT count(*)::int AS n FROM field_records WHERE at >= to_timestamp($1 / 1000.0) AND record->>'route' = $2`,
        [since, route],
      );
      return /** @type {number} */ (rows[0].n);
    });
  try {
    const started = performance.now();
    const result = await autocannon({
      url: `${origin}${FIELD_DATA_PATH}`,
      method: 'POST',
      body: beacon,
      connections: 16,
      duration: LOAD_SECONDS,
    });
    const sent = result['2xx'] * RECORDS_PER_BEACON;
    let stored = await count();
    const deadline = performance.now() + 30_000;
    while (stored < sent && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      stored = await count();
    }
    const seconds = (performance.now() - started) / 1000;
    return { perSecond: stored / seconds, sent, stored, refused: result.non2xx };
  } finally {
    await database.close();
  }
}

async function main() {
  buildIfNeeded(deployables, { log: (line) => console.error(line) });
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-many-nodes-bench-'));
  console.error('Building a second release of the jobs page…');
  await buildRemote({ packageDir: jobs.dir, name: 'jobs', outputPath: path.join(scratch, 'b') });
  const topology = await startTopology({ base, log: (line) => console.error(line) });
  /** @type {{ stop: () => Promise<unknown> } | undefined} */
  let folderNode;
  try {
    const env = { ...topology.store, RELEASES_DIR: path.join(scratch, 'commands') };
    const folder = { RELEASES_DIR: path.join(scratch, 'folder') };
    /** @type {Record<'a' | 'b', { id: string, build: string }>} */
    const releases = { a: { id: '', build: '' }, b: { id: '', build: '' } };
    for (const [name, dir] of /** @type {const} */ ([
      ['a', path.join(jobs.dir, 'dist')],
      ['b', path.join(scratch, 'b')],
    ])) {
      for (const store of [env, folder]) {
        const published = await npmRun('release', ['jobs', '--from', dir], store);
        if (published.status !== 0) throw new Error(`npm run release exited ${published.status}: ${published.stderr}`);
        releases[name].id = published.lastLine;
      }
      releases[name].build = JSON.parse(fs.readFileSync(path.join(dir, 'ssr/manifest.json'), 'utf8')).buildId;
    }
    for (const store of [env, folder]) await npmRun('promote', ['jobs', releases.a.id, '--skip-gate'], store);
    await untilEveryDocument(topology.nodes, releases.a.build);

    /** @type {number[][]} */
    const copies = [];
    /** @type {number[][]} */
    const documents = [];
    for (let run = 0; run < promotes; run += 1) {
      const next = run % 2 === 0 ? releases.b : releases.a;
      const promoted = await npmRun('promote', ['jobs', next.id, '--skip-gate'], env);
      if (promoted.status !== 0) throw new Error(`npm run promote exited ${promoted.status}: ${promoted.stderr}`);
      const [copied, served] = await Promise.all([
        untilEveryCopy(topology.nodes, next.id),
        untilEveryDocument(topology.nodes, next.build),
      ]);
      copies.push(copied);
      documents.push(served);
      if ((run + 1) % 10 === 0) console.error(`${run + 1} of ${promotes} promotes`);
    }
    const slowest = (/** @type {number[][]} */ samples) => samples.map((times) => Math.max(...times));
    const ms = (/** @type {number} */ value) => `${Math.round(value)} ms`;
    const rows = [
      [
        'promote → every node’s copy',
        ms(quantile(slowest(copies), 0.5)),
        ms(quantile(slowest(copies), 0.99)),
        '≤ 1000 ms',
      ],
      [
        'promote → every node’s documents',
        ms(quantile(slowest(documents), 0.5)),
        ms(quantile(slowest(documents), 0.99)),
        '≤ 1000 ms',
      ],
    ];

    // One node on each store, the same live release, alternating.
    const databaseNode = /** @type {number} */ (topology.nodes[1]?.ports.shell);
    const folderBase = base + 60;
    const started = await startNpmStart({ base: folderBase, metricsPort: folderBase + 5, workers: 1, env: folder });
    folderNode = started;
    const rates = { database: /** @type {number[]} */ ([]), folder: /** @type {number[]} */ ([]) };
    for (let round = 0; round < 3; round += 1) {
      rates.database.push(await documentsPerSecond(databaseNode));
      rates.folder.push(await documentsPerSecond(folderBase));
    }
    const mean = (/** @type {number[]} */ values) => values.reduce((sum, value) => sum + value, 0) / values.length;
    const ratio = mean(rates.database) / mean(rates.folder);
    rows.push([
      'documents/s, a node on PostgreSQL ÷ on a folder',
      `${Math.round(mean(rates.database))} / ${Math.round(mean(rates.folder))}`,
      ratio.toFixed(2),
      '≥ 0.95',
    ]);
    const field = await recordsPerSecond(topology.origin, topology.store.DATABASE_URL);
    rows.push([
      'field-data records/s into PostgreSQL (4 nodes)',
      `${Math.round(field.perSecond)}`,
      `${field.stored} of ${field.sent} kept (${field.refused} refused)`,
      '≥ 2000, none lost',
    ]);
    console.log(
      `\nMany nodes: ${promotes} promotes on ${topology.nodes.length} nodes; documents/s over 3 rounds of ${LOAD_SECONDS} s\n`,
    );
    console.log(textTable(['', 'p50 (or rates)', 'p99 (or ratio)', 'budget'], rows));
  } finally {
    await folderNode?.stop();
    await topology.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
