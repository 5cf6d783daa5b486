// Ending a child process the tests started, and waiting for it. The child may have ended already: Ctrl+C in a
// terminal signals the whole process group, so a server started by `npm run topology` has often exited before the
// command gets to stopping it, and its 'exit' event has been emitted to nobody. Waiting for that event then would
// wait forever.

const fs = require('node:fs');

/**
 * The processes whose parent is `pid`, from Linux's /proc (none where there is no /proc).
 * @param {number} pid
 * @returns {number[]}
 */
function childrenOf(pid) {
  let entries;
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (name) state ppid …": the name may hold spaces and parentheses, so the fields are read after its last ')'.
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      return parent === pid ? [Number(entry)] : [];
    } catch {
      return [];
    }
  });
}

/**
 * Asks a child process to end with `signal`, ends it with SIGKILL after `graceMs` if it has not, and resolves once it
 * has exited (at once when it had already).
 * @param {import('node:child_process').ChildProcess} child
 * @param {{ signal?: NodeJS.Signals, graceMs?: number, children?: boolean }} [options]  signal: the one the program
 *   ends gracefully on (nginx: SIGQUIT); children: the processes it started are killed too once it has exited, if
 *   they have not ended with it (nginx's workers, still draining when their master was killed after the grace period,
 *   would otherwise go on, their parent gone)
 * @returns {Promise<void>}
 */
function stopProcess(child, { signal = 'SIGTERM', graceMs = 5000, children = false } = {}) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const started = children && child.pid !== undefined ? childrenOf(child.pid) : [];
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(force);
      for (const pid of started) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Ended with its parent.
        }
      }
      resolve();
    });
    child.kill(signal);
  });
}

module.exports = { stopProcess };
