// How the release store and the field-data folder change a file so that it counts only once it is on disk, and so
// that a crash, a full disk or a second process at the same moment never leaves half of it:
//
// - a file written whole: a temporary file beside it, fsynced, renamed over it, then its directory fsynced (the new
//   name is on disk too); a write that fails removes the temporary file and leaves the old file as it was;
// - a folder that appears whole (a release): everything in it fsynced before it is renamed into place;
// - a file made once: the same temporary file, linked into place with link(2), which fails when the name exists, so
//   of two processes making it at once one wins whole and the other reads the winner's;
// - a symbolic link swapped: a new link beside it, renamed over it, the directory fsynced;
// - an append-only file of lines: each append starts with a newline when the file does not end with one, so a line
//   cut short by a crash loses only itself (the next line starts on a line of its own); an append that fails is cut
//   back off, so the file is as it was.
//
// A write under the store's lock is given the lock's fence (storeLock.js), checked right before the step that makes it
// visible (the rename, the append, the cut back of an undo): a command that lost the lock refuses there, leaving the
// file as it was.
//
// Node's fs has each step but none of these sequences; write-file-atomic writes a file whole but fsyncs no directory
// and makes no links, so this is the one place they are written.
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

/** @typedef {import('./storeLock').Fence} Fence */

/** What a write outside the store's lock checks (the field-data folder, a test): nothing. */
const unfenced = () => {};

/**
 * A name beside `file` for what becomes it: unique per process and call, never a name the store or a reader lists.
 * @param {string} file
 */
const temporaryName = (file) => `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;

/**
 * Makes what was renamed, linked or created in `dir` survive a crash. A file system that cannot fsync a directory
 * (EINVAL: some network and FUSE ones) keeps its names by its own rules.
 * @param {string} dir
 */
function syncDirectory(dir) {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EINVAL') throw error;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Puts a folder that is about to appear under its final name on disk: every file and folder in it, then itself.
 * @param {string} dir
 */
function syncTree(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const child = path.join(dir, entry.name);
    if (entry.isDirectory()) syncTree(child);
    else if (entry.isFile()) {
      const fd = fs.openSync(child, 'r');
      try {
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
    }
  }
  syncDirectory(dir);
}

/**
 * Writes `data` into a new file at `file` and fsyncs it; a failure removes what was written.
 * @param {string} file
 * @param {string | Buffer} data
 * @param {number} mode
 */
function writeNewFile(file, data, mode) {
  try {
    const fd = fs.openSync(file, 'wx', mode);
    try {
      fs.writeFileSync(fd, data);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    fs.rmSync(file, { force: true });
    throw error;
  }
}

/**
 * Renames `temporary` over `target` in one rename(2), then fsyncs their folder; a failure (or a fence that refuses)
 * removes `temporary`.
 * @param {string} temporary
 * @param {string} target
 * @param {Fence} fence
 */
function renameIntoPlace(temporary, target, fence) {
  try {
    fence();
    fs.renameSync(temporary, target);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  }
  syncDirectory(path.dirname(target));
}

/**
 * Replaces `file` with `data`, whole and on disk, or throws leaving it as it was.
 * @param {string} file
 * @param {string | Buffer} data
 * @param {{ mode?: number, fence?: Fence }} [options] mode: the new file's mode (before the umask)
 */
function writeFileDurably(file, data, { mode = 0o666, fence = unfenced } = {}) {
  const temporary = temporaryName(file);
  writeNewFile(temporary, data, mode);
  renameIntoPlace(temporary, file, fence);
}

/**
 * Makes `file` with `data`, whole and on disk, unless it exists: of any number of processes trying at once, exactly
 * one makes it. Whoever did not should read what is there.
 * @param {string} file
 * @param {string | Buffer} data
 * @param {{ mode?: number }} [options]
 * @returns {boolean} whether this call made it
 */
function createFileOnce(file, data, { mode = 0o666 } = {}) {
  const temporary = temporaryName(file);
  writeNewFile(temporary, data, mode);
  let made = true;
  try {
    fs.linkSync(temporary, file);
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
    made = false;
  } finally {
    fs.rmSync(temporary, { force: true });
  }
  syncDirectory(path.dirname(file));
  return made;
}

/**
 * Points the symbolic link `link` at `target`, in one rename (a reader sees the old target or the new one), on disk.
 * @param {string} link
 * @param {string} target
 * @param {{ fence?: Fence }} [options]
 */
function replaceLinkDurably(link, target, { fence = unfenced } = {}) {
  const temporary = temporaryName(link);
  fs.symlinkSync(target, temporary);
  renameIntoPlace(temporary, link, fence);
}

/**
 * Appends whole lines to `file` (made when missing), on a line of their own, or throws leaving it as it was.
 * @param {string} file
 * @param {string} lines one or more lines, each ending in "\n"
 * @param {{ sync?: boolean, fence?: Fence }} [options] sync: fsync before returning (false: the records of field
 *   data, whose writer loses at most its last second in a crash anyway); fence: checked before the append and before
 *   its undo
 * @returns {() => void} undo: cuts the file back to where it was before this append (for a change whose next step
 *   failed; only while no one else appends to it, which the fence sees to under the store's lock)
 */
function appendLinesDurably(file, lines, { sync = true, fence = unfenced } = {}) {
  fence();
  const fd = fs.openSync(file, 'a+');
  let size;
  try {
    size = fs.fstatSync(fd).size;
    const last = Buffer.alloc(1);
    const torn = size > 0 && fs.readSync(fd, last, 0, 1, size - 1) === 1 && last[0] !== 0x0a;
    try {
      fs.writeFileSync(fd, torn ? `\n${lines}` : lines);
      if (sync) fs.fsyncSync(fd);
    } catch (error) {
      try {
        fs.ftruncateSync(fd, size);
      } catch {
        // What the failed write left is then, at worst, a torn line that the next append starts after.
      }
      throw error;
    }
  } finally {
    fs.closeSync(fd);
  }
  if (sync && size === 0) syncDirectory(path.dirname(file));
  const before = size;
  return () => {
    fence();
    fs.truncateSync(file, before);
  };
}

module.exports = {
  writeFileDurably,
  createFileOnce,
  replaceLinkDurably,
  appendLinesDurably,
  syncDirectory,
  syncTree,
};
