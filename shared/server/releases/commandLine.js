// What the release commands share: reading `<remote>` and flags from the command line, the store they work on
// (RELEASES_DIR), the git commit a build comes from, and how a failure ends a command: one line saying what and why,
// exit code 1, never a stack trace for a refusal.
const { spawnSync } = require('node:child_process');
const { remoteNames, isRemoteName } = require('@nativegtm/contract/remotes');
const { repoRoot } = require('../deployables');
const { defaultStoreDir, storeLayout } = require('./storeLayout');
const { ReleaseError } = require('./operations');
const { StoreBusyError } = require('./storeLock');

/**
 * The positional arguments and `--flag [value]` options after the command's name.
 * @param {string[]} argv process.argv.slice(2)
 * @param {{ usage: string, positional: number, flags?: Record<string, 'boolean' | 'value'> }} spec
 */
function parseCommandLine(argv, { usage, positional, flags = {} }) {
  /** @type {string[]} */
  const args = [];
  /** @type {Record<string, string | boolean>} */
  const options = {};
  for (let index = 0; index < argv.length; index += 1) {
    const arg = /** @type {string} */ (argv[index]);
    if (arg.startsWith('--')) {
      const name = arg.slice(2);
      const kind = flags[name];
      if (!kind) throw new ReleaseError(`unknown option ${arg}\nusage: ${usage}`);
      if (kind === 'value') {
        const value = argv[index + 1];
        if (value === undefined) throw new ReleaseError(`${arg} needs a value\nusage: ${usage}`);
        options[name] = value;
        index += 1;
      } else {
        options[name] = true;
      }
    } else {
      args.push(arg);
    }
  }
  if (args.length !== positional) throw new ReleaseError(`usage: ${usage}`);
  const remote = /** @type {string} */ (args[0]);
  if (!isRemoteName(remote)) {
    throw new ReleaseError(`unknown remote "${remote}" (the remotes are ${remoteNames.join(', ')})`);
  }
  const storeDir = defaultStoreDir();
  return { remote, args: args.slice(1), options, storeDir, layout: storeLayout(storeDir, remote) };
}

/** The commit the working tree is at, and whether it has changes not committed (null when git cannot tell). */
function gitSource() {
  const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' });
  if (head.status !== 0) return { commit: null, dirty: false };
  const status = spawnSync('git', ['status', '--porcelain'], { cwd: repoRoot, encoding: 'utf8' });
  return { commit: head.stdout.trim(), dirty: status.stdout.trim() !== '' };
}

/**
 * Runs a command's main function: a refusal prints `error: …` and exits 1; anything else too, with its message.
 * @param {() => Promise<void>} main
 */
function runCommand(main) {
  main().then(
    () => process.exit(0),
    (error) => {
      const known = error instanceof ReleaseError || error instanceof StoreBusyError;
      console.error(`error: ${known ? error.message : `${error.message ?? error}`}`);
      process.exit(1);
    },
  );
}

module.exports = { parseCommandLine, gitSource, runCommand };
