// A built remote as a .tar.gz (a CI artifact), unpacked into a new folder to publish from, as hostile input: it may be
// forged, cut short or huge. Only plain files and folders under the folder are taken; any other entry (a link, a
// device, a path with `..` or from the root) refuses the whole archive, and so does going past a bound, read as it
// streams in: the compressed bytes, the unpacked bytes (a gzip bomb) and the entries. The unpacked bytes are every
// byte gunzip gives, counted before the tar parser sees them: the files, and also their headers, padding, long
// (pax, GNU) headers and any zero blocks between or after the entries, none of which is a file's yet all of which
// must be inflated. When the client names the archive's sha256, the bytes must have it. A refusal leaves nothing
// behind.
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { Transform, Writable } = require('node:stream');
const { pipeline } = require('node:stream/promises');
const { createGunzip, createGzip } = require('node:zlib');
const tar = require('tar-stream');
const { StoreRefusal } = require('./storeRefusal');

/** The default bounds: a remote's build is a few megabytes in a few hundred files. */
const ARCHIVE_LIMITS = { maxBytes: 50 * 1024 * 1024, maxEntries: 5000 };

/** An archive refused: the one line says why; `tooLarge` when a bound on its size was passed (HTTP 413). */
class ArchiveRefusal extends StoreRefusal {
  /** @param {string} message @param {{ tooLarge?: boolean }} [options] */
  constructor(message, { tooLarge = false } = {}) {
    super(message);
    this.name = 'ArchiveRefusal';
    this.tooLarge = tooLarge;
  }
}

/** A SHA-256 as the client names it: 64 hex digits. */
const SHA256 = /^[0-9a-f]{64}$/;

/**
 * The entry's path inside the folder, or why it is refused.
 * @param {string} name as the archive says it
 * @returns {{ relative: string } | { problem: string }}
 */
function entryPath(name) {
  if (name.includes('\0') || name.includes('\\')) return { problem: `"${printable(name)}" is not a plain path` };
  if (name.startsWith('/')) return { problem: `"${printable(name)}" is an absolute path` };
  const parts = name.split('/').filter((part) => part !== '' && part !== '.');
  if (parts.includes('..')) return { problem: `"${printable(name)}" climbs out of the folder` };
  if (parts.length === 0) return { relative: '' };
  return { relative: parts.join('/') };
}

/**
 * What an entry that could not be written is refused as: a name the archive has twice, or as a file and a folder.
 * @param {unknown} error
 * @param {string} name
 */
function entryError(error, name) {
  if (error instanceof ArchiveRefusal) return error;
  const code = /** @type {NodeJS.ErrnoException} */ (error).code;
  if (code === 'EEXIST' || code === 'EISDIR' || code === 'ENOTDIR') {
    return new ArchiveRefusal(`the archive has "${name}" twice, or as a file and a folder`);
  }
  return /** @type {Error} */ (error);
}

/** @param {string} text at most 100 characters of it, control characters shown as "?" */
const printable = (text) =>
  [...text.slice(0, 100)].map((character) => (/[\p{Cc}]/u.test(character) ? '?' : character)).join('');

/**
 * The compressed bytes as they stream in: counted and hashed, refused past `maxBytes` without reading the rest.
 * @param {number} maxBytes
 */
function packedBytes(maxBytes) {
  const hash = createHash('sha256');
  let bytes = 0;
  const stream = new Transform({
    transform(chunk, _encoding, done) {
      bytes += chunk.length;
      if (bytes > maxBytes) {
        done(new ArchiveRefusal(`the archive passes the limit of ${maxBytes} bytes`, { tooLarge: true }));
        return;
      }
      hash.update(chunk);
      done(null, chunk);
    },
  });
  return { stream, digest: () => hash.digest('hex') };
}

/** @param {number} maxBytes */
const unpacksPast = (maxBytes) =>
  new ArchiveRefusal(`the archive unpacks to more than ${maxBytes} bytes`, { tooLarge: true });

/**
 * The bytes gunzip gives, as they come: refused past `maxBytes` (a small archive of a huge file, or of nothing but
 * zeros: a gzip bomb), before the rest is inflated.
 * @param {number} maxBytes
 */
function inflatedBytes(maxBytes) {
  let bytes = 0;
  return new Transform({
    transform(chunk, _encoding, done) {
      bytes += chunk.length;
      if (bytes > maxBytes) done(unpacksPast(maxBytes));
      else done(null, chunk);
    },
  });
}

/**
 * Unpacks a .tar.gz from `source` into `dir` (which must not exist yet), or refuses it, leaving no `dir`.
 * @param {NodeJS.ReadableStream} source
 * @param {string} dir
 * @param {{ maxBytes?: number, maxEntries?: number, sha256?: string }} [options] sha256: what the bytes must hash to
 * @returns {Promise<{ entries: number, bytes: number, sha256: string }>} bytes: the files' own (their contents)
 */
async function unpackRelease(
  source,
  dir,
  { maxBytes = ARCHIVE_LIMITS.maxBytes, maxEntries = ARCHIVE_LIMITS.maxEntries, sha256 } = {},
) {
  if (sha256 !== undefined && !SHA256.test(sha256)) {
    throw new ArchiveRefusal(`"${printable(sha256)}" is not a SHA-256 (64 hex digits)`);
  }
  fs.mkdirSync(dir);
  const packed = packedBytes(maxBytes);
  let entries = 0;
  /** The bytes the files say they hold: all of them come out of gunzip too, so past `maxBytes` it is refused unread. */
  let declared = 0;
  // A refused entry stops the whole pipeline at once, unread past it; the refusal is what the caller gets.
  /** @type {Error | undefined} */
  let refusal;
  const stop = new AbortController();
  /** @param {Error} error */
  const refuse = (error) => {
    refusal ??= error;
    stop.abort();
  };
  const extract = tar.extract();
  // tar-stream's streams are streamx ones: an error they report (a header that is not one, or the abort above) is
  // taken here rather than left to the pipeline, which does not listen for them.
  extract.on('error', (error) => refuse(error));
  extract.on('entry', (header, body, next) => {
    // An entry's stream fails with the archive (cut short, or stopped above): the archive's pipeline reports it.
    body.on('error', () => {});
    const name = printable(header.name);
    try {
      entries += 1;
      if (entries > maxEntries) throw new ArchiveRefusal(`the archive has more than ${maxEntries} entries`);
      const where = entryPath(header.name);
      if ('problem' in where) throw new ArchiveRefusal(`the archive's entry ${where.problem}`);
      const target = path.join(dir, where.relative);
      if (header.type === 'directory') {
        fs.mkdirSync(target, { recursive: true });
        body.resume();
        body.once('end', () => next());
        return;
      }
      if (header.type !== 'file' || where.relative === '') {
        throw new ArchiveRefusal(`the archive's entry "${name}" is a ${header.type}, not a file`);
      }
      // What the entry says it holds, before reading it.
      declared += header.size ?? 0;
      if (declared > maxBytes) throw unpacksPast(maxBytes);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      // A second entry of the same name would replace the first: refused (wx), as an archive no build writes.
      pipeline(body, fs.createWriteStream(target, { flags: 'wx', mode: 0o644 })).then(
        () => next(),
        (error) => refuse(entryError(error, name)),
      );
    } catch (error) {
      body.resume();
      refuse(entryError(error, name));
    }
  });
  try {
    await pipeline(source, packed.stream, createGunzip(), inflatedBytes(maxBytes), extract, { signal: stop.signal });
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    const cause = refusal ?? error;
    if (cause instanceof ArchiveRefusal) throw cause;
    throw new ArchiveRefusal(`the archive cannot be read: ${/** @type {Error} */ (cause).message} (a .tar.gz, whole?)`);
  }
  const digest = packed.digest();
  if (sha256 !== undefined && digest !== sha256) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new ArchiveRefusal(`the archive's sha256 is ${digest}, not ${sha256} as it was named`);
  }
  return { entries, bytes: declared, sha256: digest };
}

/**
 * A build folder as the .tar.gz unpackRelease takes: its plain files and folders, sorted, with no times or owners, so
 * that the same files always make the same bytes (and the same sha256).
 * @param {string} dir
 * @returns {Promise<Buffer>}
 */
async function packRelease(dir) {
  const pack = tar.pack();
  /** @type {Buffer[]} */
  const chunks = [];
  const packed = pipeline(
    pack,
    createGzip(),
    new Writable({
      write(chunk, _encoding, done) {
        chunks.push(chunk);
        done();
      },
    }),
  );
  /** @param {string} relative */
  const add = async (relative) => {
    const names = fs
      .readdirSync(path.join(dir, relative), { withFileTypes: true })
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of names) {
      const name = relative === '' ? entry.name : `${relative}/${entry.name}`;
      const header = { name, mtime: new Date(0), uid: 0, gid: 0, uname: '', gname: '' };
      if (entry.isDirectory()) {
        pack.entry({ ...header, type: 'directory', mode: 0o755 });
        await add(name);
      } else if (entry.isFile()) {
        const body = fs.readFileSync(path.join(dir, name));
        await new Promise((resolve, reject) =>
          pack.entry({ ...header, type: 'file', mode: 0o644, size: body.length }, body, (error) =>
            error ? reject(error) : resolve(undefined),
          ),
        );
      } else {
        throw new ArchiveRefusal(`${path.join(dir, name)} is not a plain file or folder`);
      }
    }
  };
  try {
    await add('');
    pack.finalize();
  } catch (error) {
    pack.destroy(/** @type {Error} */ (error));
  }
  await packed;
  return Buffer.concat(chunks);
}

module.exports = { ARCHIVE_LIMITS, ArchiveRefusal, unpackRelease, packRelease, printable };
