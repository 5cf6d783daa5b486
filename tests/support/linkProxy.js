// The far end of a slow link (slowLink.js): run inside the link's network namespace, it accepts connections on
// argv[2]:argv[3] and forwards each to argv[4]:argv[5], holding every chunk, in each direction, for the delay last
// written to its stdin ("delay <ms>" lines; 0 at the start). Both legs cross the namespace's interface, where the
// packet loss is. It prints "listening <port>" once it accepts connections (argv[3] may be 0: a port the system gives).
const net = require('node:net');
const readline = require('node:readline');

const [listenHost, listenPort, toHost, toPort] = process.argv.slice(2);
let delayMs = 0;

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const [word, value] = line.trim().split(/\s+/);
  if (word === 'delay' && Number.isInteger(Number(value)) && Number(value) >= 0) delayMs = Number(value);
});
// The link goes when the test that made it does.
process.stdin.on('end', () => process.exit(0));

/**
 * Copies `from` to `to`, each chunk `delayMs` after it came. Node's timers of one duration run in the order they were
 * set, so a stream's chunks stay in order while the delay stays; a delay lowered mid-stream could overtake older
 * chunks, so each chunk also waits for the one before it.
 * @param {net.Socket} from
 * @param {net.Socket} to
 */
function delayed(from, to) {
  /** @type {Promise<void>} */
  let previous = Promise.resolve();
  from.on('data', (chunk) => {
    const due = new Promise((resolve) => setTimeout(resolve, delayMs));
    previous = Promise.all([previous, due]).then(() => {
      if (!to.destroyed) to.write(chunk);
    });
  });
  from.on('end', () => void previous.then(() => to.end()));
  // A connection reset on one side resets the other at once, as a dropped link does.
  from.on('error', () => to.destroy());
}

const server = net.createServer((client) => {
  const upstream = net.connect(Number(toPort), toHost);
  delayed(client, upstream);
  delayed(upstream, client);
});
server.listen(Number(listenPort), listenHost, () => {
  const address = /** @type {net.AddressInfo} */ (server.address());
  process.stdout.write(`listening ${address.port}\n`);
});
