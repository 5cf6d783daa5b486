#!/usr/bin/env node
// `npm run bench:canary-memory`: the canary command's memory over a long window. Writes CANARY_MEMORY_RECORDS
// (1,000,000) signed records of a canary of jobs and its control into a scratch record store, as the servers write
// them (recordFixtures.js's records, one NDJSON line each, a few writer files an hour), then reads them in a fresh
// process the way the canary command reads a step's window (sides.js: every record, once per document, into the two
// sides) and prints that process's peak RSS and the step's verdict. See docs/field-data.md.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { recordMaker } = require('@nativegtm/server/fieldData/recordFixtures');
const { openFieldRecords } = require('@nativegtm/server/fieldData/fieldRecords');
const { sidesInStore } = require('@nativegtm/tools/canary/sides');
const { DEFAULT_THRESHOLDS, judgeStep } = require('@nativegtm/tools/canary/verdict');

const HOUR = 3600_000;
/** Records a view writes: its view record, five vitals, and an error on one view in ten (on average). */
const VITALS = /** @type {const} */ ([
  ['LCP', 1800, 1400],
  ['INP', 120, 200],
  ['CLS', 0.05, 0.1],
  ['FCP', 900, 600],
  ['TTFB', 300, 200],
]);
/** Views of one document (an in-app navigation is a view): up to this many. */
const VIEWS_PER_DOCUMENT = 4;
/** The networks the views come from, and the key of the canary their tokens name. */
const NETWORKS = 1000;
const CANARY = 'memory1';
/** Writer files per hour folder: a few workers and a collector. */
const WRITERS = 4;

/**
 * Writes `count` records spread over the hours before `end`; returns the window they cover.
 * @param {string} dir
 * @param {number} count
 * @param {number} end
 */
function writeRecords(dir, count, end) {
  const hours = Math.max(1, Math.ceil(count / 250_000));
  const since = end - hours * HOUR;
  const step = (hours * HOUR) / count;
  /** @type {Map<string, string[]>} */
  let pending = new Map();
  const flush = () => {
    for (const [file, lines] of pending) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.appendFileSync(file, lines.join(''));
    }
    pending = new Map();
  };
  // A fixed seed: every run measures the same records.
  let seed = 42;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  let written = 0;
  let document = 0;
  while (written < count) {
    document += 1;
    const cohort = document % 2 === 0 ? 'canary:jobs' : 'control:jobs';
    const make = recordMaker({
      signed: true,
      remote: 'jobs',
      route: '/featured-jobs',
      cohort,
      doc: document.toString(16),
      // A thousand networks, each well under a side's cap, all in the canary measured.
      net: (document % NETWORKS).toString(16).padStart(16, '0'),
      canary: CANARY,
    });
    const views = 1 + Math.floor(random() * VIEWS_PER_DOCUMENT);
    for (let seq = 0; seq < views && written < count; seq += 1) {
      const t = Math.floor(since + written * step);
      const records = [
        make.view({ t, seq }),
        ...VITALS.map(([name, base, spread]) => make.vital(name, base + random() * spread, { t, seq })),
      ];
      if (random() < 0.1) records.push(make.error({ t, seq, page: 'jobs' }));
      const hour = new Date(t).toISOString().slice(0, 13);
      const file = path.join(dir, hour, `writer-${document % WRITERS}.ndjson`);
      const lines = pending.get(file) ?? [];
      for (const record of records.slice(0, count - written)) lines.push(`${JSON.stringify(record)}\n`);
      pending.set(file, lines);
      written += Math.min(records.length, count - written);
    }
    if (document % 10_000 === 0) flush();
  }
  flush();
  return { since, until: end };
}

/** The child: reads the window as the canary does, then reports. */
async function read() {
  const [dir, since, until] = process.argv.slice(3);
  const started = process.hrtime.bigint();
  const window = { since: Number(since), until: Number(until) };
  const counting = { canary: CANARY, maxNetworkShare: DEFAULT_THRESHOLDS.maxNetworkShare };
  const sides = await sidesInStore(openFieldRecords({ dir: /** @type {string} */ (dir) }), 'jobs', window, counting);
  const verdict = judgeStep(sides);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  process.stdout.write(
    `${JSON.stringify({
      maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      seconds: Math.round(seconds * 10) / 10,
      views: { canary: sides.canary.views, control: sides.control.views },
      verdict: verdict.verdict,
    })}\n`,
  );
}

function main() {
  const count = Number(process.env.CANARY_MEMORY_RECORDS || 1_000_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-canary-memory-'));
  try {
    const window = writeRecords(dir, count, Date.now());
    const child = spawnSync(process.execPath, [__filename, '--read', dir, String(window.since), String(window.until)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    if (child.status !== 0) throw new Error(`the reading process failed (exit ${child.status})`);
    const result = JSON.parse(child.stdout);
    const bytes = fs
      .readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .reduce((sum, entry) => sum + fs.statSync(path.join(entry.parentPath, entry.name)).size, 0);
    console.log(
      `${count.toLocaleString('en')} records (${Math.round(bytes / 1e6)} MB of NDJSON), read as a canary step: ` +
        `peak RSS ${result.maxRssMb} MB, ${result.seconds} s; ` +
        `${result.views.canary} views vs ${result.views.control}, ${result.verdict}`,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--read') {
  read().catch((error) => {
    console.error(error);
    process.exit(1);
  });
} else main();
