// Who holds a store's lock (storeLock.js): a small file beside the lock's directory, `<lock>-holder.json`, that the
// command taking the lock writes just after it took it. It names the command, for another's message, and carries a
// token only that taking of the lock has: the holder's writes check it (the fence), and it is how the lock's directory
// is tied to its holder.
//
// proper-lockfile takes, refreshes and removes the lock's directory through the file system it is given (its `fs`
// option); the one here ties each of those steps to the holder's file:
// - a command taking over a stale lock removes the holder's file first, then the directory: a holder stopped for
//   longer than the lock's staleness finds, from that moment on, that its lock is gone;
// - a command lets go of the lock (or its process exits holding it) only while the holder's file names it: once
//   another took the lock over, the directory is the other's;
// - a command refreshes the lock only while the holder's file names it, so a lock it lost is left to go stale rather
//   than kept by the wrong command.
const fs = require('node:fs');
const { writeFileDurably } = require('./durableFiles');

/** @typedef {{ pid?: number, command?: string, since?: string, token?: string }} Holder */

/** How long a command that found the lock taken waits for its holder to say who it is. */
const HOLDER_WAIT_MS = 2_000;

/**
 * The holder's file as it is now, if there is one that can be read.
 * @param {string} file
 * @returns {Holder | undefined}
 */
function currentHolder(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Who holds the lock, as its holder wrote it. The holder writes it just after taking the lock and removes it just
 * before letting go, so a command that lost the race by a millisecond may look while it is not there: it waits a
 * moment for it. Null when the lock is let go meanwhile (the holder was finishing: the command may take it now);
 * nothing known when the file never comes (the holder died between the two steps).
 * @param {string} file the holder's file
 * @param {string} lock the lock's directory
 * @returns {Promise<Holder | null>}
 */
async function awaitHolder(file, lock) {
  const until = Date.now() + HOLDER_WAIT_MS;
  for (;;) {
    const holder = currentHolder(file);
    if (holder) return holder;
    if (!fs.existsSync(lock)) return null;
    if (Date.now() >= until) return {};
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Writes the holder's file whole (a reader never sees half of it), replacing whatever an earlier holder left.
 * @param {string} file
 * @param {string} command
 * @param {string} token
 */
function writeHolder(file, command, token) {
  writeFileDurably(file, JSON.stringify({ pid: process.pid, command, since: new Date().toISOString(), token }));
}

/**
 * The file system proper-lockfile is given for one taking of the lock (see the top of this file).
 * @param {string} file the holder's file
 * @param {() => boolean | undefined} held whether the holder's file names this taking; undefined until it was
 *   written (while the lock is being taken)
 */
function holderFileSystem(file, held) {
  return {
    ...fs,
    /** @type {(dir: string, callback: (error: NodeJS.ErrnoException | null) => void) => void} */
    rmdir: (dir, callback) => {
      // Taken over by another command: its directory is not this one's to remove.
      if (held() === false) return callback(null);
      // A stale lock taken over, or this command letting go: the holder's file first.
      fs.rm(file, { force: true }, (error) => (error ? callback(error) : fs.rmdir(dir, callback)));
    },
    /** @type {(dir: string) => void} proper-lockfile's only synchronous use: its process exiting holding the lock */
    rmdirSync: (dir) => {
      if (held() !== true) return;
      fs.rmSync(file, { force: true });
      fs.rmdirSync(dir);
    },
    /** @type {(dir: string, atime: Date, mtime: Date, callback: (error: NodeJS.ErrnoException | null) => void) => void} */
    utimes: (dir, atime, mtime, callback) => {
      // proper-lockfile tries again each second, then gives the lock up once it is stale.
      if (held() === false) {
        return callback(
          Object.assign(new Error("the lock's holder's file names another command"), { code: 'ENOTHELD' }),
        );
      }
      fs.utimes(dir, atime, mtime, callback);
    },
  };
}

module.exports = { currentHolder, awaitHolder, writeHolder, holderFileSystem };
