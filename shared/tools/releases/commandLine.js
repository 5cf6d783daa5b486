// What the release commands share: `<remote>` and the options read by the repository's one command-line convention
// (@nativegtm/server/commandLine: --help, exit 0 done / 1 refused / 2 wrong usage), the store they work on, and the
// git commit a build comes from. The store is PostgreSQL with its files in a bucket when DATABASE_URL and
// RELEASES_BUCKET are set (the nodes learn of each change from the database), the folder RELEASES_DIR otherwise
// (every nginx serving it is reloaded after a canary's change).
const { spawnSync } = require('node:child_process');
const { remoteNames, isRemoteName } = require('@nativegtm/contract/remotes');
const { readCommandLine, runCommand, UsageError } = require('@nativegtm/server/commandLine');
const { configOrExit } = require('@nativegtm/server/config');
const { repoRoot } = require('@nativegtm/server/deployables');
const { storeDir } = require('@nativegtm/server/storeDir');
const { openFolderStore } = require('@nativegtm/store/folderStore');
const { openPostgresStore } = require('@nativegtm/store/postgres/postgresStore');
const { StoreRefusal } = require('@nativegtm/store/storeRefusal');
const { toolsConfig } = require('../config');
const { reloadNginx } = require('@nativegtm/server/nginxReload');

/**
 * The remote, the other positional arguments and the options; the store from the configuration.
 * @template {import('node:util').ParseArgsOptionsConfig} O
 * @param {string[]} argv process.argv.slice(2)
 * @param {import('@nativegtm/server/commandLine').CommandSpec<O>} spec
 */
function parseReleaseCommandLine(argv, spec) {
  const { values, positionals } = readCommandLine(argv, spec);
  const remote = /** @type {string} */ (positionals[0]);
  if (!isRemoteName(remote)) {
    throw new UsageError(`unknown remote "${remote}" (the remotes are ${remoteNames.join(', ')})`);
  }
  const config = configOrExit(toolsConfig);
  const dir = storeDir(config.RELEASES_DIR);
  const store =
    config.DATABASE_URL && config.RELEASES_BUCKET
      ? openPostgresStore({ databaseUrl: config.DATABASE_URL, bucketUrl: config.RELEASES_BUCKET })
      : openFolderStore(dir, { onCanaryChange: async () => void (await reloadNginx(dir)) });
  return {
    remote,
    args: positionals.slice(1),
    options: values,
    config,
    storeDir: dir,
    store: store.remote(remote),
  };
}

/** `--to <url>`: the command acts through the deploy API at that URL instead of on the store (deployClient.js). */
const TO_OPTION = /** @type {const} */ ({ to: { type: 'string' } });

/**
 * The store the command acts on: the deploy API's when `to` is given, the configured one's otherwise.
 * @param {string} remote
 * @param {import('./deployClient').ReleaseStore} store
 * @param {string | undefined} to
 * @returns {import('./deployClient').ReleaseStore}
 */
function releaseStoreOf(remote, store, to) {
  if (to === undefined) return store;
  // Required only here: a command on the store itself never loads the client.
  const { deployClient } = require('./deployClient');
  return deployClient(remote, to);
}

/** The commit the working tree is at, and whether it has changes not committed (null when git cannot tell). */
function gitSource() {
  const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' });
  if (head.status !== 0) return { commit: null, dirty: false };
  const status = spawnSync('git', ['status', '--porcelain'], { cwd: repoRoot, encoding: 'utf8' });
  return { commit: head.stdout.trim(), dirty: status.stdout.trim() !== '' };
}

/**
 * Runs a release command by the convention; what the store refuses (a busy store, a full disk, a release that is not
 * there) is a refusal too.
 * @param {string} usage
 * @param {() => Promise<void>} main
 */
function runReleaseCommand(usage, main) {
  runCommand(usage, main, { isRefusal: (/** @type {unknown} */ error) => error instanceof StoreRefusal });
}

module.exports = { parseReleaseCommandLine, gitSource, runReleaseCommand, releaseStoreOf, TO_OPTION };
