// `npm run release -- <remote> [--from <dir | .tar.gz> [--sha256 <hex>]]`: a production build of the remote,
// published as an immutable release in the store (docs/releasing.md). Visitors see no change. The last line printed
// is the release id. --from publishes a build that is already made (a CI artifact, as a folder or a .tar.gz of one,
// whose sha256 --sha256 checks) instead of building.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { deployables, repoRoot } = require('@nativegtm/server/deployables');
const { UsageError } = require('@nativegtm/server/commandLine');
const {
  parseReleaseCommandLine,
  gitSource,
  runReleaseCommand,
  releaseStoreOf,
  TO_OPTION,
} = require('../releases/commandLine');
const { ReleaseError } = require('@nativegtm/store/operations');
const { unpackRelease } = require('@nativegtm/store/releaseArchive');

const USAGE = 'npm run release -- <remote> [--from <built dir | .tar.gz> [--sha256 <hex>]] [--to <deploy API URL>]';

runReleaseCommand(USAGE, async () => {
  const {
    remote,
    options,
    store: local,
  } = parseReleaseCommandLine(process.argv.slice(2), {
    usage: USAGE,
    description: 'Builds the remote for production and publishes it as a release; nothing goes live.',
    min: 1,
    options: { from: { type: 'string' }, sha256: { type: 'string' }, ...TO_OPTION },
  });
  const store = releaseStoreOf(remote, local, options.to);
  const source = gitSource();
  let buildDir = typeof options.from === 'string' ? path.resolve(options.from) : undefined;
  if (options.sha256 !== undefined && !buildDir?.match(/\.(tar\.gz|tgz)$/)) {
    throw new UsageError('--sha256 checks an archive: give --from a .tar.gz');
  }
  const archive = buildDir && fs.statSync(buildDir, { throwIfNoEntry: false })?.isFile() ? buildDir : undefined;
  // An archive is unpacked, and a build made, into a folder of its own: removed at the end, whatever happens.
  const scratch =
    archive || !buildDir ? fs.mkdtempSync(path.join(os.tmpdir(), `nativegtm-release-${remote}-`)) : undefined;
  try {
    if (archive) {
      // A CI artifact: bounded, every entry checked (@nativegtm/store/releaseArchive).
      buildDir = path.join(/** @type {string} */ (scratch), 'dist');
      const { entries, sha256 } = await unpackRelease(fs.createReadStream(archive), buildDir, {
        sha256: /** @type {string | undefined} */ (options.sha256),
      });
      console.error(`Unpacked ${entries} entries of ${archive} (sha256 ${sha256}).`);
    } else if (!buildDir) {
      const deployable = deployables.find((candidate) => candidate.remote === remote);
      buildDir = path.join(/** @type {string} */ (scratch), 'dist');
      console.error(`Building ${deployable?.name} (production) into ${buildDir}…`);
      // Never into dist/: without releases, dist/ is what visitors get.
      const build = spawnSync(
        'npm',
        ['run', 'build', '--workspace', String(deployable?.name), '--', '--env', `outputPath=${buildDir}`],
        { cwd: repoRoot, stdio: ['ignore', 2, 2] },
      );
      if (build.status !== 0) throw new ReleaseError(`the build of ${deployable?.name} failed (see above)`);
    }
    const { id, existed } = await store.publish(buildDir, source);
    const from = source.commit
      ? `commit ${source.commit.slice(0, 12)}${source.dirty ? ' (with changes not committed)' : ''}`
      : 'no git commit';
    console.log(
      existed
        ? `${remote}: these files are already release ${id} (nothing published).`
        : `${remote}: published release ${id} from ${from} in ${store.where}. Nothing is live yet: ` +
            `npm run preview -- ${remote} ${id}, then npm run promote -- ${remote} ${id}.`,
    );
    console.log(id);
  } finally {
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  }
});
