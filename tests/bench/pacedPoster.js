// Posts one request at a steady pace over a few kept-alive connections, as a CDN forwards visitors' beacons to the
// origin. On node:net, because neither HTTP client at hand fits the measure: node:http costs this machine 0.4 ms of
// CPU per request, twice what the server spends on a beacon, taken from the cores the server is measured on; and
// autocannon (0.17 ms) keeps a rate only per second, posting each second's quota back to back, a burst that real
// beacons, from many visitors, never make. Here a request is one write of bytes prepared once, and an answer is its
// status line and Content-Length, all a server sends back to a beacon.
const net = require('node:net');

/**
 * @typedef {{ accepted: number, refused: number, failed: number }} PostCounts
 *   accepted: 2xx answers; refused: other statuses; failed: requests whose connection broke or whose answer could not
 *   be read
 */

/**
 * @param {{ url: string, body: string, connections: number,
 *   dueBy: (now: number) => number }} options
 *   dueBy: how many requests should have been sent by that time (ms since 1970): the pace
 * @returns {{ stop: () => Promise<PostCounts & { due: number }> }}
 */
function startPacedPoster({ url, body, connections, dueBy }) {
  const { hostname, port, host, pathname } = new URL(url);
  const request = Buffer.from(
    `POST ${pathname} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  const counts = { accepted: 0, refused: 0, failed: 0 };
  let sent = 0;
  let stopped = false;
  /** @type {net.Socket[]} */
  const idle = [];
  /** @type {Set<net.Socket>} */
  const busy = new Set();

  /** @param {net.Socket} socket */
  function send(socket) {
    busy.add(socket);
    sent += 1;
    socket.write(request);
  }

  function sendDue() {
    const due = dueBy(Date.now());
    while (sent < due && idle.length > 0) send(/** @type {net.Socket} */ (idle.pop()));
  }

  function open() {
    const socket = net.connect(Number(port || 80), hostname);
    socket.setNoDelay(true);
    let pending = Buffer.alloc(0);
    socket.on('connect', () => {
      idle.push(socket);
      sendDue();
    });
    socket.on('data', (/** @type {Buffer} */ chunk) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = pending.subarray(0, end).toString('latin1');
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (pending.length < end + 4 + length) return;
        pending = pending.subarray(end + 4 + length);
        const status = Number(head.slice(9, 12));
        if (status >= 200 && status < 300) counts.accepted += 1;
        else counts.refused += 1;
        busy.delete(socket);
        idle.push(socket);
        sendDue();
      }
    });
    socket.on('error', () => {}); // 'close' follows
    socket.on('close', () => {
      if (stopped) return;
      if (busy.delete(socket)) counts.failed += 1;
      const index = idle.indexOf(socket);
      if (index >= 0) idle.splice(index, 1);
      // A server may close a connection after an answer (a refusal): the pace goes on over a new one.
      open();
    });
  }

  for (let index = 0; index < connections; index += 1) open();
  // Every 10 ms, what is due by then, on the connections that are free: the pace holds when a tick comes late.
  const ticker = setInterval(sendDue, 10);
  return {
    /** Stops posting; resolves once the answers on their way have come, with the counts and how many were due. */
    async stop() {
      clearInterval(ticker);
      const due = dueBy(Date.now());
      // The answers still on their way, for at most a second.
      for (let waited = 0; busy.size > 0 && waited < 1000; waited += 10) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      stopped = true;
      counts.failed += busy.size;
      for (const socket of [...idle, ...busy]) socket.destroy();
      return { ...counts, due };
    },
  };
}

module.exports = { startPacedPoster };
