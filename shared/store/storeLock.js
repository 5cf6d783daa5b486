// One command at a time changes a remote's store (publish, promote, rollback, prune): proper-lockfile's lock, a
// directory made atomically (mkdir) whose modification time the holder refreshes while it runs. A lock not refreshed
// for STALE_MS (its command killed, on this machine or another sharing the store) is taken over. Beside it, a small
// file says who holds it (lockHolder.js).
//
// The lock fences its holder's writes: a command stopped (SIGSTOP, a machine swapped out) for longer than STALE_MS
// may find its lock taken over when it runs again, with nothing in between to tell it. So each write of a change
// that others can see first checks that the holder's file still names this taking of the lock (`fence`), and the
// command taking a stale lock over removes that file before anything else. A file system has no write that checks
// and writes in one step: a command stopped between a check and its write may still make that one write.
const { randomUUID } = require('node:crypto');
const path = require('node:path');
const lockfile = require('proper-lockfile');
const { awaitHolder, currentHolder, holderFileSystem, writeHolder } = require('./lockHolder');
const { asStoreWriteError } = require('./storeWriteError');
const { StoreRefusal } = require('./storeRefusal');

/** A lock left this long without a refresh is a dead command's (the holder refreshes it every STALE_MS / 2). */
const STALE_MS = 10_000;

/**
 * Throws a StoreBusyError (`lost`) unless the store's lock is still this command's: called right before each write of
 * a change that others can see (a rename, a link, an append, a removal). Files only this command sees (a temporary
 * file, a release being copied) need none.
 * @typedef {() => void} Fence
 */

/**
 * Another command holds the lock: the message says which and since when. `lost`: the lock was taken from this command
 * while its change ran, which may have been made in part (trying it again could make it twice).
 */
class StoreBusyError extends StoreRefusal {
  /** @param {string} message @param {{ lost?: boolean }} [options] */
  constructor(message, { lost = false } = {}) {
    super(message);
    this.name = 'StoreBusyError';
    this.lost = lost;
  }
}

/**
 * How many times a command tries the lock when each time it finds it let go while it looked for its holder: more only
 * under a stream of quick changes, where refusing says more than waiting on.
 */
const LOCK_ATTEMPTS = 3;

/**
 * @param {string} command
 * @param {string} why
 */
const lostLock = (command, why) =>
  new StoreBusyError(
    `the store's lock was lost while "${command}" ran (${why}); it wrote nothing more, ` +
      'but what it wrote before is in the store: check it',
    { lost: true },
  );

/** @param {unknown} error */
const isLost = (error) => error instanceof StoreBusyError && error.lost;

/**
 * Runs `work` holding the lock at `file`; throws StoreBusyError at once when another command holds it (unless it lets
 * go while this one looks for its name), and a StoreWriteError when the store's file system refuses a write
 * (storeWriteError.js). `work` is given the lock's fence, to call before each of its writes.
 * @template T
 * @param {string} file
 * @param {string} command what the holder is doing, for the other's message
 * @param {(fence: Fence) => Promise<T>} work
 * @returns {Promise<T>}
 */
async function withStoreLock(file, command, work) {
  const holderFile = `${file}-holder.json`;
  const token = randomUUID();
  let claimed = false;
  const held = () => (claimed ? currentHolder(holderFile)?.token === token : undefined);
  /** @type {Error | undefined} */
  let compromised;
  let release;
  for (let attempt = 1; !release; attempt += 1) {
    try {
      release = await lockfile.lock(path.dirname(file), {
        lockfilePath: file,
        realpath: false,
        retries: 0,
        stale: STALE_MS,
        fs: holderFileSystem(holderFile, held),
        // Not proper-lockfile's default (throw in a timer, ending the process mid-change): the change's next write
        // refuses, and the command says that the lock was lost.
        onCompromised: (error) => {
          compromised = error;
        },
      });
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'ELOCKED')
        throw asStoreWriteError(error, path.dirname(file));
      const other = await awaitHolder(holderFile, file);
      // Let go while this command looked (a quick change, such as a running canary's lease renewal, ending): its turn.
      if (other === null && attempt < LOCK_ATTEMPTS) continue;
      throw new StoreBusyError(
        `another command is changing this remote's releases: "${other?.command ?? 'unknown'}" ` +
          `(pid ${other?.pid ?? '?'}, since ${other?.since ?? '?'}). Nothing was changed; try again when it is done.`,
      );
    }
  }
  /** Why the lock is no longer this command's, or undefined while it is. */
  const loss = () => {
    if (compromised) return compromised.message;
    const holder = currentHolder(holderFile);
    if (holder?.token === token) return undefined;
    const who = holder ? `: "${holder.command}" (pid ${holder.pid}, since ${holder.since})` : '';
    return `another command took it over${who}`;
  };
  /** @type {Fence} */
  const fence = () => {
    const why = loss();
    if (why !== undefined) throw lostLock(command, why);
  };
  /** @type {{ value: T } | { error: unknown }} */
  let outcome;
  try {
    // Inside: a holder's file that cannot be written (a full disk) must not leave the lock taken.
    writeHolder(holderFile, command, token);
    claimed = true;
    outcome = { value: await work(fence) };
  } catch (error) {
    outcome = { error: asStoreWriteError(error, path.dirname(file)) };
  }
  const why = claimed ? loss() : compromised?.message;
  if (why === undefined) await release();
  // Not let go: the directory is the other command's now (or, taken by none, goes stale). Said after `work`'s own
  // outcome, whatever it was: what it wrote before is in the store, and another command may have changed it since.
  else if (!('error' in outcome && isLost(outcome.error))) throw lostLock(command, why);
  if ('error' in outcome) throw outcome.error;
  return outcome.value;
}

module.exports = { withStoreLock, StoreBusyError, STALE_MS };
