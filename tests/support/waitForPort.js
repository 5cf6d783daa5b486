const { connect } = require('node:net');

/**
 * Resolves once something accepts connections on the loopback port; rejects after `timeoutMs`.
 * @param {number} port
 * @param {{ timeoutMs?: number, what?: string }} [options]
 * @returns {Promise<void>}
 */
function waitForPort(port, { timeoutMs = 10_000, what = 'nothing' } = {}) {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
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
