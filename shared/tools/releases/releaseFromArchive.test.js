/** @jest-environment node */
// `npm run release -- <remote> --from <.tar.gz>`: a CI artifact published as the folder it holds would be, and a
// hostile one refused in one line with nothing stored.
const { createHash } = require('node:crypto');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { gzipSync } = require('node:zlib');
const { ARCHIVE_LIMITS } = require('@nativegtm/store/releaseArchive');
const { fakeBuild, removeFakeBuilds } = require('@nativegtm/store/testing/fakeBuild');

const RELEASE = path.join(__dirname, '../commands/release.js');

/** @type {string} */
let scratch;
beforeEach(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-release-archive-'));
});
afterEach(() => {
  fs.rmSync(scratch, { recursive: true, force: true });
  removeFakeBuilds();
});

/** @param {string[]} args */
function release(args) {
  const result = spawnSync(process.execPath, [RELEASE, 'jobs', ...args], {
    env: { ...process.env, RELEASES_DIR: path.join(scratch, 'store') },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: result.status, id: result.stdout.trim().split('\n').pop(), stderr: result.stderr };
}

/**
 * A .tar.gz of `dir`'s contents, as `tar` makes it in a CI job.
 * @param {string} dir
 */
function tarball(dir) {
  const file = path.join(scratch, `artifact-${fs.readdirSync(scratch).length}.tar.gz`);
  const made = spawnSync('tar', ['-czf', file, '-C', dir, '.'], { encoding: 'utf8' });
  expect(made.stderr).toBe('');
  return file;
}

const sha256 = (/** @type {string} */ file) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

describe('a release from a .tar.gz', () => {
  it('publishes the build it holds, as the same release as its folder', async () => {
    const build = fakeBuild();
    const archive = tarball(build);
    const fromArchive = release(['--from', archive, '--sha256', sha256(archive)]);
    expect(fromArchive).toMatchObject({
      status: 0,
      stderr: expect.stringMatching(/^Unpacked \d+ entries of .*artifact-0.tar.gz \(sha256 [0-9a-f]{64}\)\.$/m),
    });
    expect(release(['--from', build])).toMatchObject({ status: 0, id: fromArchive.id });
  });

  it.each([
    ['a sha256 that is not its own', ['--sha256', '0'.repeat(64)], /sha256 is/],
    ['a link in it', [], /is a symlink, not a file/],
  ])('refuses %s in one line, storing nothing', (what, extra, message) => {
    const build = fakeBuild();
    if (what === 'a link in it') fs.symlinkSync('/etc/passwd', path.join(build, 'ssr', 'head.html'));
    const archive = tarball(build);
    const refused = release(['--from', archive, ...extra]);
    expect(refused.status).toBe(1);
    expect(refused.stderr.trim().split('\n')).toEqual([expect.stringMatching(message)]);
    // Refused before the store was opened: nothing there at all.
    expect(fs.existsSync(path.join(scratch, 'store'))).toBe(false);
  });

  it('refuses one that inflates past the bound, zero blocks after its build included, in one line', () => {
    const tarFile = path.join(scratch, 'build.tar');
    expect(spawnSync('tar', ['-cf', tarFile, '-C', fakeBuild(), '.'], { encoding: 'utf8' }).stderr).toBe('');
    const archive = path.join(scratch, 'padded.tar.gz');
    fs.writeFileSync(
      archive,
      gzipSync(Buffer.concat([fs.readFileSync(tarFile), Buffer.alloc(ARCHIVE_LIMITS.maxBytes)])),
    );
    const refused = release(['--from', archive]);
    expect(refused.status).toBe(1);
    expect(refused.stderr.trim().split('\n')).toEqual([
      expect.stringContaining(`the archive unpacks to more than ${ARCHIVE_LIMITS.maxBytes} bytes`),
    ]);
    expect(fs.existsSync(path.join(scratch, 'store'))).toBe(false);
  });
});
