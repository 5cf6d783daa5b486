// One command at a time changes a remote's store (publish, promote, rollback, prune): proper-lockfile's lock, a
// directory made atomically (mkdir) whose modification time the holder refreshes while it runs. A lock not refreshed
// for STALE_MS (its command killed, on this machine or another sharing the store) is taken over. Beside it, a small
// file says who holds it, for the other command's message.
const fs = require('node:fs');
const path = require('node:path');
const lockfile = require('proper-lockfile');
const { writeFileDurably } = require('./durableFiles');
const { asStoreWriteError } = require('./storeWriteError');
const { StoreRefusal } = require('./storeRefusal');

/** A lock left this long without a refresh is a dead command's (the holder refreshes it every STALE_MS / 2). */
const STALE_MS = 10_000;

/**
 * Another command holds the lock: the message says which and since when. `lost`: the lock was taken from this command
 * while its change ran, which may have been made (trying it again could make it twice).
 */
class StoreBusyError extends StoreRefusal {
  /** @param {string} message @param {{ lost?: boolean }} [options] */
  constructor(message, { lost = false } = {}) {
    super(message);
    this.name = 'StoreBusyError';
    this.lost = lost;
  }
}

/** How long a command that found the lock taken waits for its holder to say who it is. */
const HOLDER_WAIT_MS = 2_000;

/**
 * How many times a command tries the lock when each time it finds it let go while it looked for its holder: more only
 * under a stream of quick changes, where refusing says more than waiting on.
 */
const LOCK_ATTEMPTS = 3;

/**
 * Who holds the lock, as its holder wrote it. The holder writes it just after taking the lock and removes it just
 * before letting go, so a command that lost the race by a millisecond may look while it is not there: it waits a
 * moment for it. Null when the lock is let go meanwhile (the holder was finishing: the command may take it now);
 * nothing known when the file never comes (the holder died between the two steps).
 * @param {string} file the holder's file
 * @param {string} lock the lock's directory
 * @returns {Promise<{ pid?: number, command?: string, since?: string } | null>}
 */
async function readHolder(file, lock) {
  const until = Date.now() + HOLDER_WAIT_MS;
  for (;;) {
    try {
      return JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch {
      if (!fs.existsSync(lock)) return null;
      if (Date.now() >= until) return {};
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

/**
 * Writes the holder's file whole, so a reader never sees half of it.
 * @param {string} file
 * @param {string} command
 */
function writeHolder(file, command) {
  writeFileDurably(file, JSON.stringify({ pid: process.pid, command, since: new Date().toISOString() }));
}

/**
 * Runs `work` holding the lock at `file`; throws StoreBusyError at once when another command holds it (unless it lets
 * go while this one looks for its name), and a StoreWriteError when the store's file system refuses a write
 * (storeWriteError.js).
 * @template T
 * @param {string} file
 * @param {string} command what the holder is doing, for the other's message
 * @param {() => Promise<T>} work
 * @returns {Promise<T>}
 */
async function withStoreLock(file, command, work) {
  const holderFile = `${file}-holder.json`;
  /** @type {Error | undefined} */
  let lost;
  let release;
  for (let attempt = 1; !release; attempt += 1) {
    try {
      release = await lockfile.lock(path.dirname(file), {
        lockfilePath: file,
        realpath: false,
        retries: 0,
        stale: STALE_MS,
        // Not proper-lockfile's default (throw in a timer, ending the process mid-change): the command finishes what
        // it started, and says at the end that the lock was lost.
        onCompromised: (error) => {
          lost = error;
        },
      });
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'ELOCKED')
        throw asStoreWriteError(error, path.dirname(file));
      const other = await readHolder(holderFile, file);
      // Let go while this command looked (a quick change, such as a running canary's lease renewal, ending): its turn.
      if (other === null && attempt < LOCK_ATTEMPTS) continue;
      throw new StoreBusyError(
        `another command is changing this remote's releases: "${other?.command ?? 'unknown'}" ` +
          `(pid ${other?.pid ?? '?'}, since ${other?.since ?? '?'}). Nothing was changed; try again when it is done.`,
      );
    }
  }
  try {
    // Inside: a holder's file that cannot be written (a full disk) must not leave the lock taken.
    writeHolder(holderFile, command);
    return await work();
  } catch (error) {
    throw asStoreWriteError(error, path.dirname(file));
  } finally {
    fs.rmSync(holderFile, { force: true });
    if (!lost) await release();
    if (lost) {
      // Thrown after `work`'s own outcome: what it changed is in the store, but another command may have run too.
      // eslint-disable-next-line no-unsafe-finally
      throw new StoreBusyError(`the store's lock was lost while "${command}" ran (${lost.message}); check the store`, {
        lost: true,
      });
    }
  }
}

module.exports = { withStoreLock, StoreBusyError, STALE_MS };
