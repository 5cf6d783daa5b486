/** @jest-environment node */
// A release archive as hostile input: what unpacks, what is refused, and that a refusal leaves nothing behind.
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Readable } = require('node:stream');
const { gunzipSync } = require('node:zlib');
const fc = require('fast-check');
const { ArchiveRefusal, packRelease, unpackRelease } = require('./releaseArchive');
const { archiveOf } = require('./testing/archives');

/** @type {string} */
let scratch;
beforeEach(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-archive-'));
});
afterEach(() => fs.rmSync(scratch, { recursive: true, force: true }));

const archive = archiveOf;

/** @param {Buffer} bytes @param {Parameters<typeof unpackRelease>[2]} [options] */
const unpack = (bytes, options) => unpackRelease(Readable.from([bytes]), path.join(scratch, 'release'), options);
const left = () => fs.existsSync(path.join(scratch, 'release'));

const build = [
  { name: 'mf-manifest.json', body: '{"name":"jobs"}' },
  { name: 'ssr/', type: /** @type {const} */ ('directory') },
  { name: 'ssr/head.html', body: '<title>Jobs</title>' },
  { name: './ssr/body/index.html', body: '<main></main>' },
];

describe('a release archive', () => {
  it('unpacks plain files and folders, and says how many, how big and its sha256', async () => {
    const bytes = await archive(build);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    await expect(unpack(bytes, { sha256 })).resolves.toEqual({ entries: 4, bytes: 47, sha256 });
    const dir = path.join(scratch, 'release');
    expect(fs.readFileSync(path.join(dir, 'ssr/body/index.html'), 'utf8')).toBe('<main></main>');
    expect(fs.readdirSync(dir).sort()).toEqual(['mf-manifest.json', 'ssr']);
  });

  it.each([
    ['a path that climbs out', { name: '../../etc/cron.d/x', body: 'x' }, /entry "..\/..\/etc\/cron.d\/x" climbs out/],
    ['an absolute path', { name: '/etc/passwd', body: 'x' }, /entry "\/etc\/passwd" is an absolute path/],
    [
      'a symbolic link',
      { name: 'ssr/head.html', type: 'symlink', linkname: '/etc/passwd' },
      /is a symlink, not a file/,
    ],
    ['a hard link', { name: 'a.js', type: 'link', linkname: 'mf-manifest.json' }, /is a link, not a file/],
    ['a device', { name: 'tty', type: 'character-device', devmajor: 5, devminor: 0 }, /is a character-device/],
    ['a fifo', { name: 'pipe', type: 'fifo' }, /is a fifo, not a file/],
    ['a backslash path', { name: '..\\..\\x', body: 'x' }, /is not a plain path/],
    [
      'a file twice',
      { name: 'mf-manifest.json', body: 'again' },
      /has "mf-manifest.json" twice, or as a file and a folder/,
    ],
  ])('refuses %s, leaving nothing behind', async (_, entry, message) => {
    const bytes = await archive([...build, /** @type {any} */ (entry)]);
    const refused = unpack(bytes);
    await expect(refused).rejects.toThrow(ArchiveRefusal);
    await expect(refused).rejects.toThrow(message);
    expect(left()).toBe(false);
    expect(fs.readdirSync(scratch)).toEqual([]);
  });

  it('refuses too many entries, too many bytes packed, and too many unpacked (a gzip bomb), as too large', async () => {
    const many = await archive(Array.from({ length: 6 }, (_, index) => ({ name: `f${index}`, body: 'x' })));
    await expect(unpack(many, { maxEntries: 5 })).rejects.toThrow('the archive has more than 5 entries');
    const bomb = await archive([{ name: 'zeros', body: Buffer.alloc(5_000_000) }]);
    expect(bomb.length).toBeLessThan(10_000);
    await expect(unpack(bomb, { maxBytes: 1_000_000 })).rejects.toMatchObject({
      tooLarge: true,
      message: 'the archive unpacks to more than 1000000 bytes',
    });
    await expect(unpack(bomb, { maxBytes: 1000 })).rejects.toMatchObject({
      tooLarge: true,
      message: 'the archive passes the limit of 1000 bytes',
    });
    expect(left()).toBe(false);
  });

  it('counts every byte it inflates: zero blocks after the entries and long headers, not only the files', async () => {
    const zeros = await archive(build, { after: Buffer.alloc(1_000_000) });
    expect(zeros.length).toBeLessThan(10_000);
    await expect(unpack(zeros, { maxBytes: 500_000 })).rejects.toMatchObject({
      tooLarge: true,
      message: 'the archive unpacks to more than 500000 bytes',
    });
    expect(left()).toBe(false);
    // A pax header is read whole into memory before its entry: its bytes count as the file's do.
    const longHeader = await archive([{ name: 'a.js', body: 'x', pax: { comment: 'x'.repeat(600_000) } }]);
    await expect(unpack(longHeader, { maxBytes: 500_000 })).rejects.toMatchObject({
      tooLarge: true,
      message: 'the archive unpacks to more than 500000 bytes',
    });
    expect(left()).toBe(false);
  });

  it('takes an archive that inflates to its bound exactly, and refuses it one byte over', async () => {
    const bytes = await archive(build);
    const inflated = gunzipSync(bytes).length;
    await expect(unpack(bytes, { maxBytes: inflated })).resolves.toMatchObject({ entries: 4, bytes: 47 });
    fs.rmSync(path.join(scratch, 'release'), { recursive: true });
    await expect(unpack(bytes, { maxBytes: inflated - 1 })).rejects.toMatchObject({
      tooLarge: true,
      message: `the archive unpacks to more than ${inflated - 1} bytes`,
    });
    expect(left()).toBe(false);
  });

  it('refuses an archive cut off half-way, or whose bytes do not have the sha256 named', async () => {
    const bytes = await archive(build);
    await expect(unpack(bytes.subarray(0, Math.floor(bytes.length / 2)))).rejects.toThrow(/cannot be read/);
    expect(left()).toBe(false);
    await expect(unpack(bytes, { sha256: '0'.repeat(64) })).rejects.toThrow(/sha256 is [0-9a-f]{64}, not 0{64}/);
    expect(left()).toBe(false);
    await expect(unpack(bytes, { sha256: 'abc' })).rejects.toThrow('"abc" is not a SHA-256 (64 hex digits)');
  });

  it('over generated entry names, writes nothing outside its folder', async () => {
    const segment = fc.constantFrom('..', '.', '', 'a', 'b.js', '%2e%2e', '\\', '/');
    const name = fc.array(segment, { minLength: 1, maxLength: 6 }).map((parts) => parts.join('/'));
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(name, { minLength: 1, maxLength: 4 }), async (names) => {
        const dir = path.join(scratch, 'release');
        const bytes = await archive(names.map((entry) => ({ name: entry, body: 'x' })));
        try {
          await unpackRelease(Readable.from([bytes]), dir);
        } catch (error) {
          expect(error).toBeInstanceOf(ArchiveRefusal);
        }
        expect(fs.readdirSync(scratch).filter((entry) => entry !== 'release')).toEqual([]);
        fs.rmSync(dir, { recursive: true, force: true });
      }),
      { numRuns: 40 },
    );
  });
});

describe('a build packed for publishing', () => {
  it('unpacks to the same files, and the same files always pack to the same bytes', async () => {
    const dir = path.join(scratch, 'build');
    fs.mkdirSync(path.join(dir, 'ssr/body'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'mf-manifest.json'), '{"name":"jobs"}');
    fs.writeFileSync(path.join(dir, 'ssr/body/index.html'), '<main></main>');
    const bytes = await packRelease(dir);
    fs.utimesSync(path.join(dir, 'mf-manifest.json'), new Date(), new Date(2001, 1, 1));
    expect((await packRelease(dir)).equals(bytes)).toBe(true);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    expect(await unpack(bytes, { sha256 })).toMatchObject({ entries: 4, sha256 });
    expect(fs.readFileSync(path.join(scratch, 'release/ssr/body/index.html'), 'utf8')).toBe('<main></main>');
  });

  it('refuses a folder holding anything but files and folders', async () => {
    const dir = path.join(scratch, 'build');
    fs.mkdirSync(dir);
    fs.symlinkSync('/etc/passwd', path.join(dir, 'passwd'));
    await expect(packRelease(dir)).rejects.toThrow(/passwd is not a plain file or folder/);
  });
});
