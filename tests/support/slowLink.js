// A link between one client and a server that a test can make slow and lossy: the client connects through a network
// namespace of its own (a veth pair), where a proxy (linkProxy.js) holds every chunk for a delay and iptables drops a
// share of the packets at random, on the way there and back. The kernel here has no `netem` queueing discipline
// ("Specified qdisc kind is unknown"), so the delay is the proxy's; the loss is the kernel's, and TCP retransmits as
// on a real link. Made and removed by the test, as root; the namespace and its interfaces go with `close()`.
const { spawn, spawnSync } = require('node:child_process');
const net = require('node:net');
const path = require('node:path');
const readline = require('node:readline');
const { locateTool } = require('./systemTools');

/**
 * Runs `program` with `args`; throws with its output when it fails.
 * @param {string} program
 * @param {string[]} args
 */
function run(program, args) {
  const result = spawnSync(program, args, { encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`${path.basename(program)} ${args.join(' ')} failed: ${(result.stderr || result.stdout).trim()}`);
  }
}

/**
 * Opens a link to `to`. Clients connect to the link's host and port; until `degrade()` the link only forwards.
 * @param {{ to: { host: string, port: number } }} options
 */
async function openSlowLink({ to }) {
  if (process.getuid?.() !== 0) {
    throw new Error(
      'A slow link needs root: it makes a network namespace (ip netns) and drops packets in it (iptables).',
    );
  }
  const ip = locateTool('IP_PATH');
  const iptables = locateTool('IPTABLES_PATH');
  // Names and addresses of this process's own, so that two test runs on one machine keep apart.
  const id = process.pid % 100_000;
  const namespace = `nativegtm-link-${id}`;
  const [hostSide, farSide] = [`ngl${id}h`, `ngl${id}n`];
  const subnet = `10.211.${id % 250}`;
  const [hostAddress, farAddress] = [`${subnet}.1`, `${subnet}.2`];
  const inNamespace = (/** @type {string[]} */ args) => run(ip, ['netns', 'exec', namespace, ...args]);
  // A namespace left by a run of this pid that was killed.
  spawnSync(ip, ['netns', 'del', namespace]);

  /** @type {net.Server | undefined} */
  let forwarder;
  /** @type {Set<net.Socket>} */
  const sockets = new Set();
  /** @type {import('node:child_process').ChildProcess | undefined} */
  let proxy;
  const close = async () => {
    proxy?.stdin?.end();
    proxy?.kill('SIGKILL');
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => (forwarder ? forwarder.close(resolve) : resolve(undefined)));
    // The veth pair goes with its end in the namespace.
    spawnSync(ip, ['netns', 'del', namespace]);
  };
  try {
    run(ip, ['netns', 'add', namespace]);
    run(ip, ['link', 'add', hostSide, 'type', 'veth', 'peer', 'name', farSide]);
    run(ip, ['link', 'set', farSide, 'netns', namespace]);
    run(ip, ['addr', 'add', `${hostAddress}/30`, 'dev', hostSide]);
    run(ip, ['link', 'set', hostSide, 'up']);
    inNamespace([ip, 'addr', 'add', `${farAddress}/30`, 'dev', farSide]);
    inNamespace([ip, 'link', 'set', farSide, 'up']);
    inNamespace([ip, 'link', 'set', 'lo', 'up']);

    // The way back into this namespace: from the host's end of the pair to the server.
    forwarder = net.createServer((client) => {
      const upstream = net.connect(to.port, to.host);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => (socket === client ? upstream : client).destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    const listening = forwarder;
    await new Promise((resolve, reject) => listening.once('error', reject).listen(0, hostAddress, () => resolve(0)));
    const forwarderPort = /** @type {net.AddressInfo} */ (listening.address()).port;

    const started = spawn(
      ip,
      [
        'netns',
        'exec',
        namespace,
        process.execPath,
        path.join(__dirname, 'linkProxy.js'),
        farAddress,
        '0',
        hostAddress,
        String(forwarderPort),
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    proxy = started;
    const port = await new Promise((resolve, reject) => {
      started.once('exit', (code) => reject(new Error(`the link's proxy exited (${code}) before it listened`)));
      readline
        .createInterface({ input: /** @type {import('node:stream').Readable} */ (started.stdout) })
        .once('line', (line) => resolve(Number(/^listening (\d+)$/.exec(line)?.[1])));
    });

    /** The rules that drop packets: every TCP packet through the namespace's end of the pair, both ways. */
    const lossRules = (/** @type {number} */ percent) =>
      [
        ['INPUT', '-i', farSide],
        ['OUTPUT', '-o', farSide],
      ].map((rule) => [
        ...rule,
        '-p',
        'tcp',
        '-m',
        'statistic',
        '--mode',
        'random',
        '--probability',
        String(percent / 100),
        '-j',
        'DROP',
      ]);
    return {
      host: farAddress,
      port: /** @type {number} */ (port),
      /**
       * From now, each chunk waits `delayMs` each way, and `lossPercent` of the packets are dropped each way.
       * @param {{ delayMs: number, lossPercent: number }} link
       */
      degrade({ delayMs, lossPercent }) {
        started.stdin?.write(`delay ${delayMs}\n`);
        for (const rule of lossRules(lossPercent)) inNamespace([iptables, '-A', ...rule]);
      },
      /** The link as it was: no delay, no loss. */
      restore() {
        started.stdin?.write('delay 0\n');
        inNamespace([iptables, '-F']);
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

module.exports = { openSlowLink };
