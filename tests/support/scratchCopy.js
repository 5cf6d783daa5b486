// A scratch copy of the repository as a fresh clone has it: the files git tracks and the new ones it does not ignore
// (no node_modules, no builds), for the specs that run commands where a team or a pipeline would, not in this checkout.
const { execFileSync } = require('node:child_process');
const { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { dirname, join } = require('node:path');
const { repoRoot } = require('@nativegtm/server/deployables');

/**
 * Copies the repository into a new folder; with `install`, runs the README's `npm install` in it (from npm's cache
 * where it can). The copy's path, and how to remove it.
 * @param {string} name what the copy is for, in its folder's name
 * @param {{ install?: boolean }} [options]
 */
function scratchCopy(name, { install = true } = {}) {
  const scratch = mkdtempSync(join(tmpdir(), `nativegtm-${name}-`));
  const dir = join(scratch, 'repo');
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], {
    cwd: repoRoot,
    encoding: 'utf8',
  })
    .split('\0')
    .filter((file) => file && existsSync(join(repoRoot, file)));
  for (const file of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    cpSync(join(repoRoot, file), join(dir, file));
  }
  if (install) {
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: dir, stdio: 'ignore' });
  }
  return { dir, remove: () => rmSync(scratch, { recursive: true, force: true }) };
}

module.exports = { scratchCopy };
