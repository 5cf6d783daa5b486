import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deployables, repoRoot } from '@nativegtm/server/deployables';
import { readLivePointer } from '@nativegtm/store/livePointer';
import { storeLayout } from '@nativegtm/store/layout';
import { npmRun } from '../support/releaseCommands';
import { publish, releaseScratch, type ReleaseScratch } from '../support/releaseSites';

// CONTRIBUTING.md, "A day on the jobs team": every command of the section is one CI runs in a test. The ones that work
// on the checkout and a release store are run here, as written, in the section's order, on a scratch store: `npm run
// check`, then the release, its preview, the promotion, the field data and the rollback. The others need a site, a
// browser or visitors for minutes, and are run by the specs named in RUN_ELSEWHERE, which must contain the command.

jest.setTimeout(600_000);

const contributing = readFileSync(join(repoRoot, 'CONTRIBUTING.md'), 'utf8');
const section = /^## A day on the jobs team\n([\s\S]*?)^## /m.exec(contributing)?.[1] ?? '';
/** Each command of the section's shell blocks, without its comment. */
const commands = [...section.matchAll(/```sh\n([\s\S]*?)```/g)]
  .flatMap(([, block]) => (block ?? '').split('\n'))
  .map((line) => line.replace(/\s+#.*$/, '').trim())
  .filter((line) => line !== '');
const scripts: Record<string, string> = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).scripts;

/** The npm script a command runs (`npm start` is `start`, `npm install` none). */
const scriptOf = (command: string) => /^npm (?:run (\S+)|(start))\b/.exec(command)?.slice(1).find(Boolean);

/** Where CI runs the commands not run here, and what in that file runs it. */
const RUN_ELSEWHERE: Record<string, { file: string; runs: string }> = {
  'npm install': { file: '.ci/run', runs: 'npm install' },
  start: { file: 'tests/support/npmStart.js', runs: "'shared/tools/commands/start.js'" },
  dev: { file: 'tests/specs/devOverride.test.ts', runs: "'shared/tools/commands/dev.js'" },
  canary: { file: 'tests/support/releaseCommands.js', runs: "'shared/tools/commands/canary.js'" },
};
/** The ones run here, in this order. */
const RUN_HERE = ['check', 'release', 'preview', 'promote', 'rollback', 'vitals'];

test('the section lists the day, and every command in it is one CI runs', () => {
  expect(commands.length).toBeGreaterThan(5);
  for (const command of commands) {
    const script = scriptOf(command);
    const key = script ?? command;
    expect([command, RUN_HERE.includes(key) || key in RUN_ELSEWHERE]).toEqual([command, true]);
    if (!script) continue;
    // The script exists and takes every option the section gives it.
    const file = /^node (\S+)/.exec(scripts[script] ?? '')?.[1];
    expect([command, file]).toEqual([command, expect.stringMatching(/\.js$/)]);
    const source = readFileSync(join(repoRoot, file!), 'utf8');
    for (const option of command.match(/--[a-z-]+/g) ?? []) {
      if (option !== '--')
        expect([command, source.includes(`'${option.slice(2)}'`) || source.includes(option)]).toEqual([command, true]);
    }
  }
  for (const { file, runs } of Object.values(RUN_ELSEWHERE)) {
    expect([file, readFileSync(join(repoRoot, file), 'utf8').includes(runs)]).toEqual([file, true]);
  }
});

describe('the commands that work on the checkout and the store, as written', () => {
  let store: ReleaseScratch;
  let id = '';
  beforeAll(() => {
    store = releaseScratch('day');
  });

  /** Runs one of the section's commands as a shell would, with the release id filled in. */
  function run(script: string) {
    const command = commands.find((candidate) => scriptOf(candidate) === script);
    if (!command) throw new Error(`the section has no npm run ${script}`);
    const started = Date.now();
    const result = spawnSync('bash', ['-c', command.replace('<id>', id)], {
      cwd: repoRoot,
      env: { ...process.env, ...store.env },
      encoding: 'utf8',
    });
    console.log(`${command}: exit ${result.status} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return { ...result, output: `${result.stdout}${result.stderr}` };
  }

  test('check, release, preview, promote, roll back, read the field data', async () => {
    const check = run('check');
    expect([check.status, check.output]).toEqual([0, expect.stringMatching(/^jobs: checked in \d+ s\.$/m)]);
    expect(check.output).toMatch(/✓ .*hydrat/i);

    // Yesterday's release is live: another build of the page (the one just checked, with a comment of its own).
    const yesterdayDir = join(store.scratch, 'yesterday');
    cpSync(join(deployables.find((d) => d.remote === 'jobs')!.dir, 'dist'), yesterdayDir, { recursive: true });
    appendFileSync(join(yesterdayDir, 'index.html'), '<!-- yesterday -->\n');
    const yesterday = await publish(store, yesterdayDir);
    expect(await npmRun('promote', ['jobs', yesterday, '--skip-gate'], store.env)).toMatchObject({ status: 0 });
    const live = () => readLivePointer(storeLayout(store.env.RELEASES_DIR!, 'jobs')).id;

    const release = run('release');
    expect(release.status).toBe(0);
    id = /^([0-9a-f]{16})$/m.exec(release.stdout)?.[1] ?? '';
    expect(id).not.toBe('');

    const preview = run('preview');
    expect([preview.status, preview.stdout]).toEqual([0, expect.stringContaining(`/_preview/jobs/${id}`)]);

    const promote = run('promote');
    expect([promote.status, promote.output]).toEqual([0, expect.stringContaining(id)]);
    expect(live()).toBe(id);

    const vitals = run('vitals');
    expect(vitals.status).toBe(0);

    const rollback = run('rollback');
    expect(rollback.status).toBe(0);
    expect(live()).toBe(yesterday);
  });

  afterAll(() => {
    if (store) spawnSync('rm', ['-rf', store.scratch]);
  });
});
