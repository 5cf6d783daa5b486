// What the primary and its workers say to each other over the cluster's channel.

const messages = /** @type {const} */ ({
  /** worker → primary: every port serves. */
  ready: 'nativegtm:ready',
  /** worker → primary: the site could not start (e.g. a port in use); the worker exits. */
  failed: 'nativegtm:failed',
  /** primary → worker: take no new connections, finish the requests under way, exit. */
  drain: 'nativegtm:drain',
});

/**
 * @typedef {{ type: typeof messages.ready } | { type: typeof messages.failed, message: string }} WorkerMessage
 * @typedef {{ type: typeof messages.drain }} PrimaryMessage
 */

/**
 * @param {unknown} message
 * @returns {message is { type: string, message?: unknown }}
 */
function isMessage(message) {
  return (
    typeof message === 'object' &&
    message !== null &&
    typeof (/** @type {{ type?: unknown }} */ (message).type) === 'string'
  );
}

module.exports = { messages, isMessage };
