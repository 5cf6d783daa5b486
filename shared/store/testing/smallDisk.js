// A real full disk for tests: a small tmpfs mounted on a new folder, filled until the kernel says ENOSPC. Mounting
// takes root (or CAP_SYS_ADMIN); where it cannot, the tests that need one are skipped, saying so in one line.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const FILLER = '.filler';

/** @param {string} dir @param {string} size e.g. "2m" */
function mount(dir, size) {
  const result = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0755`, 'nativegtm-small-disk', dir], {
    encoding: 'utf8',
  });
  if (result.error) return result.error.message;
  return result.status === 0 ? undefined : result.stderr.trim() || `mount exited with ${result.status}`;
}

/**
 * Why no small disk can be mounted here, or undefined when one can (tried once: mounted and unmounted).
 * @returns {string | undefined}
 */
function smallDiskUnavailable() {
  if (process.getuid?.() !== 0) return 'not root';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-disk-probe-'));
  try {
    const problem = mount(dir, '64k');
    if (problem === undefined) spawnSync('umount', [dir]);
    return problem;
  } finally {
    fs.rmdirSync(dir);
  }
}

/**
 * jest's `it` where a small disk can be mounted; elsewhere `it.skip`, after one line on stderr saying why.
 * @param {jest.It} it
 * @param {string} what the tests, for that line
 * @returns {jest.It}
 */
function itOnSmallDisk(it, what) {
  const problem = smallDiskUnavailable();
  if (problem === undefined) return it;
  process.stderr.write(`skipped ${what}: a tmpfs cannot be mounted here (${problem})\n`);
  return it.skip;
}

/**
 * Mounts a tmpfs of `size` on a new folder.
 * @param {string} [size]
 */
function mountSmallDisk(size = '2m') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-small-disk-'));
  const problem = mount(dir, size);
  if (problem !== undefined) {
    fs.rmdirSync(dir);
    throw new Error(`cannot mount a tmpfs on ${dir}: ${problem}`);
  }
  return {
    dir,
    /**
     * Takes every free byte but `leave`: from now on, any write that needs a new page of the disk (past what was
     * left) fails with ENOSPC.
     */
    fill(leave = 0) {
      const fd = fs.openSync(path.join(dir, FILLER), 'a');
      try {
        for (const chunk of [Buffer.alloc(64 * 1024), Buffer.alloc(1)]) {
          for (;;) {
            try {
              fs.writeSync(fd, chunk);
            } catch (error) {
              if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'ENOSPC') throw error;
              break;
            }
          }
        }
        fs.ftruncateSync(fd, Math.max(0, fs.fstatSync(fd).size - leave));
      } finally {
        fs.closeSync(fd);
      }
    },
    /** Gives back what fill took. */
    free() {
      fs.rmSync(path.join(dir, FILLER), { force: true });
    },
    unmount() {
      spawnSync('umount', ['-l', dir]);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** @typedef {ReturnType<typeof mountSmallDisk>} SmallDisk */

module.exports = { itOnSmallDisk, mountSmallDisk };
