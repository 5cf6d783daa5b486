// "Builds everything that is not built": a package is rebuilt when its dist/ is missing or older than any of its
// sources (its own src/, public/ and build settings, or the shared packages it compiles in).
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { buildMarker, repoRoot } = require('@nativegtm/server/deployables');

/** @typedef {import('@nativegtm/server/deployables').Deployable} Deployable */

const IGNORED = new Set(['node_modules', 'dist', 'coverage']);

/**
 * The latest modification time of the file, or of anything in the folder; 0 when it does not exist.
 * @param {string} target
 * @returns {number}
 */
function newestMtime(target) {
  let newest = 0;
  let stats;
  try {
    stats = fs.statSync(target);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.mtimeMs;
  for (const entry of fs.readdirSync(target)) {
    if (IGNORED.has(entry) || entry.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

/**
 * @param {Deployable} deployable
 * @returns {string[]}
 */
function sourcesOf(deployable) {
  return [
    ...['src', 'public', 'webpack.config.js', 'package.json'].map((entry) => path.join(deployable.dir, entry)),
    // The packages every build compiles in: the design system, the contract (page registry, compose paths, fragment
    // formats, canary buckets: compiled into the shell and the remotes) and the build setup itself.
    ...['design-system', 'contract', 'build'].map((name) => path.join(repoRoot, 'shared', name)),
    path.join(repoRoot, 'tsconfig.base.json'),
  ];
}

/**
 * Why a build whose output is `marker` needs to run again, or null when it is newer than all of `sources`.
 * @param {string} marker
 * @param {string[]} sources
 * @returns {string | null}
 */
function staleSince(marker, sources) {
  let builtAt;
  try {
    builtAt = fs.statSync(marker).mtimeMs;
  } catch {
    return 'not built yet';
  }
  const changedAt = Math.max(...sources.map(newestMtime));
  return changedAt > builtAt ? 'sources changed since the last build' : null;
}

/**
 * Why the package needs a build, or null when its dist/ is up to date.
 * @param {Deployable} deployable
 */
function staleReason(deployable) {
  return staleSince(buildMarker(deployable), sourcesOf(deployable));
}

/**
 * Builds the stale packages one after the other with their own `npm run build`; throws if one fails.
 * @param {Deployable[]} deployables
 * @param {{ log?: (message: string) => void }} [options]
 */
function buildIfNeeded(deployables, { log = console.log } = {}) {
  for (const deployable of deployables) {
    const reason = staleReason(deployable);
    if (!reason) continue;
    log(`Building ${deployable.name} (${reason})…`);
    const started = Date.now();
    const result = spawnSync('npm', ['run', 'build', '--silent', '--workspace', deployable.name], {
      cwd: repoRoot,
      stdio: 'inherit',
    });
    if (result.status !== 0) throw new Error(`Building ${deployable.name} failed (exit code ${result.status}).`);
    // webpack leaves a file it would write unchanged alone, so the marker may keep its old time: mark the build.
    const now = new Date();
    fs.utimesSync(buildMarker(deployable), now, now);
    log(`Built ${deployable.name} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
}

module.exports = { buildIfNeeded, staleReason, staleSince, sourcesOf };
