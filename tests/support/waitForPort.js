const { connect } = require('node:net');

/**
 * Resolves once something accepts connections on the loopback port; rejects after `timeoutMs`, or as soon as
 * `child`, the server that is to listen, has exited (it crashed, or a Ctrl+C ended it): waiting on would only wait
 * out the timeout.
 * @param {number} port
 * @param {{ timeoutMs?: number, what?: string, child?: import('node:child_process').ChildProcess }} [options]
 * @returns {Promise<void>}
 */
function waitForPort(port, { timeoutMs = 10_000, what = 'nothing', child } = {}) {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (child && (child.exitCode !== null || child.signalCode !== null)) {
        reject(new Error(`${what} listens on ${port}: it exited (${child.exitCode ?? child.signalCode})`));
        return;
      }
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`${what} listens on ${port} after ${timeoutMs} ms`));
        else setTimeout(attempt, 100);
      });
    };
    attempt();
  });
}

module.exports = { waitForPort };
