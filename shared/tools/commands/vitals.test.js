/** @jest-environment node */
// `npm run vitals` run as a command, on a record store of known records whose percentiles are worked out by hand.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { repoRoot } = require('@nativegtm/server/deployables');
const { createRecordWriter } = require('@nativegtm/server/fieldData/recordStore');
const { recordMaker } = require('@nativegtm/server/fieldData/recordFixtures');

/** @typedef {import('@nativegtm/server/fieldData/recordStore').FieldRecord} FieldRecord */

const A = 'aaaaaaaaaaaaaaaa';
const B = 'bbbbbbbbbbbbbbbb';
const C = 'cccccccccccccccc';
const MINUTE = 60_000;

/** @type {string} */
let dir;
/** @type {string} */
let empty;

/**
 * @param {string[]} args
 * @param {{ viaNpm?: boolean, env?: NodeJS.ProcessEnv }} [options]
 */
function vitals(args, { viaNpm = false, env = {} } = {}) {
  const [command, prefix] = viaNpm
    ? ['npm', ['run', '--silent', 'vitals', '--']]
    : [process.execPath, [path.join(__dirname, 'vitals.js')]];
  return spawnSync(command, [...prefix, ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, FIELD_DATA_DIR: '', ...env },
    timeout: 30_000,
  });
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitals-command-'));
  empty = fs.mkdtempSync(path.join(os.tmpdir(), 'vitals-empty-'));
  const now = Date.now();
  const recent = now - 10 * MINUTE;
  const { view, vital, error } = recordMaker({ t: recent, release: A });
  const employers = { route: '/employers', remote: 'employers', release: C };
  const records = [
    // "/" on candidates' release A: 4 views.
    ...[1, 2, 3, 4].map(() => view()),
    // LCP sorted 1000 2000 3000 5000: nearest rank ceil(0.75 × 4) = 3, 3000 ms, needs improvement.
    ...[3000, 1000, 2000].map((value) => vital('LCP', value)),
    { ...vital('LCP', 5000), target: 'main > img.hero', targetRemote: 'candidates' },
    { ...vital('LCP', 4200), target: 'main > img.hero', targetRemote: 'candidates', t: now - 45 * MINUTE },
    // INP sorted 50 90 120 150 180 220 300 600: rank 6, 220 ms, needs improvement.
    ...[50, 120, 180, 220, 90, 150, 300].map((value) => vital('INP', value)),
    { ...vital('INP', 600), target: 'button.apply', targetRemote: 'candidates' },
    // CLS sorted 0 0.05 0.3: rank 3, 0.30, poor.
    vital('CLS', 0),
    vital('CLS', 0.05),
    { ...vital('CLS', 0.3), target: 'div.banner', targetRemote: 'shell' },
    // FCP 1200 alone: 1.2 s, good. TTFB sorted 100 700 900 1900: rank 3, 900 ms, needs improvement.
    vital('FCP', 1200),
    ...[700, 100, 1900, 900].map((value) => vital('TTFB', value)),
    error(),
    // Release B, 2 views: LCP sorted 1200 1800, rank 2: 1.8 s, good.
    view({ release: B }),
    view({ release: B }),
    vital('LCP', 1800, { release: B }),
    vital('LCP', 1200, { release: B }),
    // "/employers" on employers' release C: 2 views, signed ones (one document, sent twice).
    ...[1, 2].map(() => view({ ...employers, signed: true, doc: '0123456789abcdef', seq: 0 })),
    ...[1, 2].map(() => vital('INP', 40, { ...employers, signed: true, doc: '0123456789abcdef', seq: 0 })),
    // The shell threw once on "/": per 1,000 of the route's 6 views, 166.7.
    error({ remote: 'shell', release: 'live', source: 'rejection' }),
  ];
  const writer = createRecordWriter({ dir, now: () => recent });
  writer.write(/** @type {FieldRecord[]} */ (records));
  await writer.flush();
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(empty, { recursive: true, force: true });
});

describe('npm run vitals', () => {
  it('prints p75 of every vital with its rating, errors per 1,000 views, and the elements behind poor values', () => {
    const result = vitals(['--since', '30m', '--dir', dir], { viaNpm: true });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(
      new RegExp(`^Field data since \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC \\(the last 30m\\), 8 views, from ${dir}:$`),
    );
    expect(lines.slice(2, 7)).toEqual([
      'route       remote      release           views  LCP p75     INP p75     CLS p75    FCP p75     TTFB p75   errors/1k views',
      `/           candidates  ${A}      4  3.0 s NI    220 ms NI   0.30 poor  1.2 s good  900 ms NI            250.0`,
      `/           candidates  ${B}      2  1.8 s good  -           -          -           -                      0.0`,
      '/           shell       live                  -  -           -           -          -           -                    166.7',
      `/employers  employers   ${C}      2  -           40 ms good  -          -           -                      0.0`,
    ]);
    expect(result.stdout).toContain(
      [
        `  / candidates ${A}`,
        '    LCP  1  main > img.hero (candidates)',
        '    INP  1  button.apply (candidates)',
        '    CLS  1  div.banner (shell)',
      ].join('\n'),
    );
  });

  it("reads one remote's records of a longer window, from FIELD_DATA_DIR", () => {
    const result = vitals(['candidates'], { env: { FIELD_DATA_DIR: dir } });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^Field data for candidates since .* \(the last 1h\), 6 views, from /);
    // The last hour unless told: the LCP of 45 minutes ago counts: sorted 1000 2000 3000 4200 5000, rank ceil(3.75) = 4, 4.2 s, poor.
    expect(result.stdout).toContain(`/      ${A}      4  4.2 s poor  220 ms NI  0.30 poor  1.2 s good  900 ms NI`);
    expect(result.stdout).toContain('    LCP  2  main > img.hero (candidates)');
    expect(result.stdout).not.toMatch(/employers|shell {2}/);
    const shorter = vitals(['candidates', '--since', '30m', '--dir', dir]);
    expect(shorter.stdout).toContain(`/      ${A}      4  3.0 s NI`);
  });

  it('counts signed records only, once per document, with --signed', () => {
    const result = vitals(['--signed', '--dir', dir]);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^Signed field data since .*, 1 views \(signed records, once per document\)/);
    expect(result.stdout).toContain(`/employers  employers  ${C}      1  -        40 ms good`);
    expect(result.stdout).not.toContain(A);
  });

  it('says so in one line when there are no records, and exits 0', () => {
    const result = vitals(['jobs', '--since', '7d', '--dir', empty]);
    expect(result).toMatchObject({ status: 0, stderr: '' });
    expect(result.stdout).toMatch(/^No field data for jobs since .* \(the last 7d\) in .*\.\n$/);
  });

  it.each([
    [['nope'], 'error: unknown remote "nope" (the remotes are candidates, employers, jobs, comingSoon)'],
    [['--since', '90'], 'error: --since must be a duration such as 30m, 1h, 24h or 7d, not "90"'],
    [['candidates', 'jobs'], 'error: unexpected argument "jobs"'],
  ])('refuses %j as wrong usage: exit 2, with the usage', (args, message) => {
    const result = vitals([...args, '--dir', empty]);
    expect(result).toMatchObject({ status: 2, stdout: '' });
    expect(result.stderr).toBe(
      `${message}\nusage: npm run vitals -- [<remote>] [--since <30m|1h|24h|7d>] [--signed] [--dir <folder>]\n`,
    );
  });

  it('prints its usage with --help', () => {
    const result = vitals(['--help']);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^usage: npm run vitals -- \[<remote>\]/);
  });
});
