// Ending a child process the tests started, and waiting for it. The child may have ended already: Ctrl+C in a
// terminal signals the whole process group, so a server started by `npm run topology` has often exited before the
// command gets to stopping it, and its 'exit' event has been emitted to nobody. Waiting for that event then would
// wait forever.

/**
 * Asks a child process to end with `signal`, ends it with SIGKILL after `graceMs` if it has not, and resolves once it
 * has exited (at once when it had already).
 * @param {import('node:child_process').ChildProcess} child
 * @param {{ signal?: NodeJS.Signals, graceMs?: number }} [options]  signal: the one the program ends gracefully on
 *   (nginx: SIGQUIT)
 * @returns {Promise<void>}
 */
function stopProcess(child, { signal = 'SIGTERM', graceMs = 5000 } = {}) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill(signal);
  });
}

module.exports = { stopProcess };
