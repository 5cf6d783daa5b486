// The HTTP side of the site's servers, whatever they answer: each listens on exactly its own port, and shuts down
// without waiting for idle keep-alive connections.
const http = require('node:http');
const net = require('node:net');

/** Servers that are draining (see drain()). */
const draining = new WeakSet();
/** What each closed server's handler still finishes (the field data it writes out): close() and drain() wait for it. */
const handlersClosing = new WeakMap();

/** How long a draining server waits for its last requests before it ends the connections that hold them. */
const DRAIN_GRACE_MS = 10_000;

/** How long a client may take to send its request's headers, and its whole request (nginx's configuration too). */
const HEADER_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 30_000;
/**
 * How long a kept-alive connection may stay idle before the server ends it (Node's default, said here because
 * UPSTREAM_IDLE_MS depends on it; longer would hold a draining server open longer). A proxy in front must give up its
 * idle connections sooner: a request it sends on a connection the server is closing at that moment fails, and a POST
 * is not retried (nginx answers 502: a beacon lost).
 */
const KEEP_ALIVE_MS = 5_000;
/** How long nginx keeps an idle connection to one of the site's servers: well within KEEP_ALIVE_MS. */
const UPSTREAM_IDLE_MS = 2_000;

/**
 * @typedef {import('node:http').RequestListener & { close?: () => void | Promise<void> }} ClosableHandler
 *   a request handler with work of its own to stop when its server closes (e.g. a background refresh), or to finish
 *   (records still to write out)
 */

/**
 * A server for `handler` that stops the handler's own work once it closes.
 * @param {ClosableHandler} handler
 */
function createHttpServer(handler) {
  const server = http.createServer(
    {
      // A client that trickles its request in (a slow sender, on purpose or not) holds a socket: it gets 408 once
      // its headers take longer than HEADER_TIMEOUT_MS, checked every second rather than Node's default 30.
      headersTimeout: HEADER_TIMEOUT_MS,
      requestTimeout: REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: 1000,
      keepAliveTimeout: KEEP_ALIVE_MS,
    },
    (req, res) => {
      // A draining server ends each kept-alive connection after its next answer, so clients move to another server.
      if (draining.has(server)) res.setHeader('Connection', 'close');
      handler(req, res);
    },
  );
  server.once('close', () => {
    handlersClosing.set(
      server,
      Promise.resolve(handler.close?.()).catch(() => {}),
    );
  });
  // Keep-alive sockets would hold a shutdown open; they are closed explicitly in close().
  return server;
}

class PortInUseError extends Error {
  /**
   * @param {number} port
   * @param {string} label what the port is for, e.g. the deployable's name
   */
  constructor(port, label) {
    super(
      `Port ${port} (${label}) is already in use. Stop the process that holds it ` +
        `(e.g. \`lsof -i :${port}\`) and try again; the site needs exactly this port.`,
    );
    this.name = 'PortInUseError';
    this.port = port;
  }
}

/**
 * Listens on `port` (all interfaces unless `host`, HOST, is given); rejects with PortInUseError rather than picking
 * another.
 * @template {import('node:net').Server} S
 * @param {S} server
 * @param {number} port
 * @param {string} label what the port is for, named in the error
 * @param {string} [host]
 * @returns {Promise<S>}
 */
function listen(server, port, label, host) {
  return new Promise((resolve, reject) => {
    /** @param {NodeJS.ErrnoException} error */
    const onError = (error) => {
      server.off('listening', onListening);
      reject(error.code === 'EADDRINUSE' ? new PortInUseError(port, label) : error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve(server);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

/**
 * Stops accepting connections and ends idle keep-alive ones, so a shutdown does not hang.
 * @param {import('node:http').Server} server
 * @returns {Promise<void>}
 */
function close(server) {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve(handlersClosing.get(server)));
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 2000).unref();
  });
}

/**
 * Stops taking connections and lets every request under way finish, for a restart that fails no request: kept-alive
 * connections are not cut between two requests (a client may be sending the next one at that moment) but end after
 * their next answer (`Connection: close`), or when they have been idle for the keep-alive timeout. Connections
 * still open after `graceMs` are ended.
 * @param {import('node:http').Server} server
 * @param {number} [graceMs]
 * @returns {Promise<void>}
 */
function drain(server, graceMs = DRAIN_GRACE_MS) {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    draining.add(server);
    const timer = setTimeout(() => server.closeAllConnections(), graceMs);
    timer.unref();
    // net.Server's close, not http.Server's: the latter also ends idle kept-alive connections at once.
    net.Server.prototype.close.call(server, () => {
      clearTimeout(timer);
      resolve(handlersClosing.get(server));
    });
  });
}

module.exports = {
  createHttpServer,
  listen,
  close,
  drain,
  DRAIN_GRACE_MS,
  PortInUseError,
  HEADER_TIMEOUT_MS,
  REQUEST_TIMEOUT_MS,
  KEEP_ALIVE_MS,
  UPSTREAM_IDLE_MS,
};
