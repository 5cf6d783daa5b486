// The two trees `npm run bench:compare` serves: this checkout as it is, and another commit in a worktree of its own,
// installed and built once and kept (a second comparison against the same commit starts at once).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { deployables, repoRoot } = require('@nativegtm/server/deployables');
const { buildIfNeeded } = require('@nativegtm/tools/buildIfNeeded');

/** @typedef {{ label: string, dir: string, sha: string }} Tree */

/** Where other commits' worktrees are kept between runs. */
const WORKTREES = path.join(os.tmpdir(), 'nativegtm-bench-worktrees');
/** Written into a worktree once it is installed and built: its presence means both steps finished. */
const READY_MARK = '.bench-ready';

/**
 * Runs a command in `cwd`, its output shown; throws naming it when it fails.
 * @param {string} command
 * @param {string[]} args
 * @param {string} cwd
 */
function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed in ${cwd} (exit ${result.status})`);
}

/**
 * @param {string[]} args
 * @returns {string} git's output, trimmed
 */
function git(args) {
  const result = spawnSync('git', args, { cwd: repoRoot, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr.trim()}`);
  return result.stdout.trim();
}

/**
 * The commit `ref` names, installed (`npm install`, as CI does) and built (`npm run build`) in its own worktree.
 * @param {string} ref
 * @param {(line: string) => void} log
 * @returns {Tree}
 */
function preparedCommit(ref, log) {
  const sha = git(['rev-parse', '--verify', `${ref}^{commit}`]);
  const dir = path.join(WORKTREES, sha);
  const label = sha.slice(0, 7);
  if (fs.existsSync(path.join(dir, READY_MARK))) return { label, dir, sha };
  if (!fs.existsSync(path.join(dir, 'package.json'))) {
    fs.mkdirSync(WORKTREES, { recursive: true });
    git(['worktree', 'prune']);
    git(['worktree', 'add', '--detach', '--force', dir, sha]);
  }
  log(`Installing and building ${label} in ${dir} (once; kept for later comparisons)…`);
  run('npm', ['install', '--no-audit', '--no-fund'], dir);
  run('npm', ['run', 'build'], dir);
  fs.writeFileSync(path.join(dir, READY_MARK), `${new Date().toISOString()}\n`);
  return { label, dir, sha };
}

/**
 * This checkout, its stale packages built from what is in it now (uncommitted changes included, and said so in its label).
 * @param {(line: string) => void} log
 * @returns {Tree}
 */
function preparedCheckout(log) {
  const sha = git(['rev-parse', 'HEAD']);
  const dirty = git(['status', '--porcelain', '--untracked-files=no']) !== '';
  buildIfNeeded(deployables, { log });
  return { label: `${sha.slice(0, 7)}${dirty ? '+changes' : ''}`, dir: repoRoot, sha };
}

module.exports = { preparedCommit, preparedCheckout };
