// One command at a time changes a remote's store (publish, promote, rollback, prune): a lock file created with
// O_EXCL, holding the holder's pid and command. A lock whose process is gone (a command killed) is taken over.
const fs = require('node:fs');

/** Another command holds the lock: the message says which and since when. */
class StoreBusyError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'StoreBusyError';
  }
}

/** @param {number} pid */
function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM';
  }
}

/**
 * Runs `work` holding the lock at `file`; throws StoreBusyError at once when a live process holds it.
 * @template T
 * @param {string} file
 * @param {string} command what the holder is doing, for the other's message
 * @param {() => Promise<T>} work
 * @returns {Promise<T>}
 */
async function withStoreLock(file, command, work) {
  const holder = JSON.stringify({ pid: process.pid, command, since: new Date().toISOString() });
  for (let attempt = 0; ; attempt += 1) {
    try {
      fs.writeFileSync(file, holder, { flag: 'wx' });
      break;
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
      /** @type {{ pid?: number, command?: string, since?: string }} */
      let other = {};
      try {
        other = JSON.parse(fs.readFileSync(file, 'utf8'));
      } catch {
        // Being written this very moment: treat as held.
        other = { pid: process.pid };
      }
      // Held by a live process, or taken by another command between our removing a stale lock and retrying.
      if (attempt > 0 || (typeof other.pid === 'number' && isRunning(other.pid))) {
        throw new StoreBusyError(
          `another command is changing this remote's releases: "${other.command}" (pid ${other.pid}, since ` +
            `${other.since}). Nothing was changed; try again when it is done.`,
        );
      }
      // Its process is gone: the lock is stale.
      fs.rmSync(file, { force: true });
    }
  }
  try {
    return await work();
  } finally {
    fs.rmSync(file, { force: true });
  }
}

module.exports = { withStoreLock, StoreBusyError };
