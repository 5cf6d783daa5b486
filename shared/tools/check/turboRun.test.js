/** @jest-environment node */
// Which tasks `npm run check` runs, asked of Turborepo itself (a dry run) over a git repository with this one's
// turbo.json and every workspace's package.json, and no other file: the package graph is the real one.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { repoRoot } = require('@nativegtm/server/deployables');
const { TURBO, TURBO_ENV, turboArguments } = require('./turboRun');

jest.setTimeout(60_000);

/** @type {string} */
let repo;

/**
 * @param {string} command
 * @param {string[]} args
 */
function run(command, args) {
  const result = spawnSync(command, args, { cwd: repo, encoding: 'utf8', env: { ...process.env, ...TURBO_ENV } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

/**
 * The packages that would run a check task, by name.
 * @param {string} packageName
 * @param {string} base
 */
function checkedPackages(packageName, base) {
  const plan = JSON.parse(
    run(process.execPath, [TURBO, ...turboArguments({ packageName, base, concurrency: 1 }), '--dry-run=json']),
  );
  /** @type {{ package: string, command: string }[]} */
  const tasks = plan.tasks;
  return [...new Set(tasks.filter((task) => task.command !== '<NONEXISTENT>').map((task) => task.package))].sort();
}

beforeAll(() => {
  repo = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-check-'));
  const root = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  for (const file of ['package.json', 'turbo.json']) fs.copyFileSync(path.join(repoRoot, file), path.join(repo, file));
  const workspaces = run('git', [
    '-C',
    repoRoot,
    'ls-files',
    .../** @type {string[]} */ (root.workspaces).map((glob) => `${glob}/package.json`),
  ]);
  for (const file of workspaces.split('\n').filter(Boolean)) {
    fs.mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
    fs.copyFileSync(path.join(repoRoot, file), path.join(repo, file));
  }
  // turbo finds the workspaces' dependencies' versions in node_modules: the real one, by a link.
  fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(repo, 'node_modules'));
  fs.writeFileSync(path.join(repo, '.gitignore'), 'node_modules\n.turbo\n');
  run('git', ['init', '-q', '-b', 'main']);
  run('git', ['add', '.']);
  run('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', 'commit', '-q', '-m', 'graph']);
});
afterAll(() => fs.rmSync(repo, { recursive: true, force: true }));

describe("npm run check's tasks", () => {
  it("are the remote's and those of the shared packages it is built from, when nothing shared changed", () => {
    fs.writeFileSync(path.join(repo, 'jobs-mfe', 'changed.ts'), '// a change to the remote\n');
    const checked = checkedPackages('jobs-mfe', 'HEAD');
    expect(checked).toContain('jobs-mfe');
    expect(checked).toContain('@nativegtm/design-system');
    expect(checked).not.toContain('employers-mfe');
    expect(checked).not.toContain('shell');
  });

  it("are the whole site's when the change touches a shared package", () => {
    fs.writeFileSync(path.join(repo, 'shared', 'design-system', 'changed.ts'), '// a change to the design system\n');
    const checked = checkedPackages('jobs-mfe', 'HEAD');
    expect(checked).toEqual(
      expect.arrayContaining(['jobs-mfe', 'employers-mfe', 'candidates-mfe', 'coming-soon-mfe', 'shell']),
    );
    fs.rmSync(path.join(repo, 'shared', 'design-system', 'changed.ts'));
  });

  it('count a committed change since the base as a change', () => {
    fs.writeFileSync(path.join(repo, 'shared', 'contract', 'changed.js'), '// a change to the contract\n');
    run('git', ['add', '.']);
    run('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', 'commit', '-q', '-m', 'contract']);
    expect(checkedPackages('jobs-mfe', 'HEAD')).not.toContain('shell');
    expect(checkedPackages('jobs-mfe', 'HEAD~1')).toContain('shell');
  });
});
