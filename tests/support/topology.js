// Many nodes, one site, on one machine: PostgreSQL (Debian's) and s3rver as the store, three built-in nodes
// (`npm start`, one worker each) and one nginx node with its collector, each serving its own copy of the store,
// HAProxy (Debian's) in front, health-checking every node's /readyz, and Varnish (Debian's, docs/cdn.vcl) as the CDN
// in front of HAProxy's documents. For the many-nodes tests and the bench; `npm run
// topology` starts it for a person to try (docs/many-nodes.md).
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { portsFrom } = require('@nativegtm/contract/ports');
const { shippedRemotes } = require('@nativegtm/contract/remotesConfig');
const { BUCKET_COOKIE } = require('@nativegtm/contract/canaryBuckets');
const { deployables } = require('@nativegtm/server/deployables');
const { storeLayout } = require('@nativegtm/store/layout');
const { readLivePointer } = require('@nativegtm/store/livePointer');
const { startStoreServices } = require('@nativegtm/store/testing/storeServices');
const { startNpmStart } = require('./npmStart');
const { startNginx } = require('./nginxServer');
const { startVarnish } = require('./varnishServer');
const { openSlowLink } = require('./slowLink');
const { stopProcess } = require('./stopProcess');
const { ensureSystemTools, locateTool, toolsNamed } = require('./systemTools');
const { waitForPort } = require('./waitForPort');

/** How often HAProxy checks each node, and after how many failures it routes around it. */
const CHECK_INTERVAL_MS = 500;
const CHECK_FALLS = 2;

/**
 * HAProxy's configuration: one frontend per deployable (the public ports remotes.json names), each balanced over
 * that deployable's port on every node, every node checked by its shell's /readyz.
 * @param {{ frontends: Record<string, number>, nodes: { name: string, ports: Record<string, number> }[] }} plan
 */
function haproxyConfig({ frontends, nodes }) {
  const lines = [
    'global',
    '  maxconn 4000',
    'defaults',
    '  mode http',
    '  timeout connect 1s',
    '  timeout client 30s',
    '  timeout server 30s',
    // A connection refused (a node just killed) is tried once more on another node: only requests under way fail.
    '  retries 2',
    '  option redispatch',
    '  option http-keep-alive',
  ];
  for (const deployable of deployables) {
    const name = deployable.name;
    lines.push(
      `frontend ${name}`,
      `  bind 127.0.0.1:${frontends[name]}`,
      `  default_backend ${name}`,
      `backend ${name}`,
      '  balance roundrobin',
      '  option httpchk GET /readyz',
      '  http-check expect status 200',
      `  default-server inter ${CHECK_INTERVAL_MS}ms fall ${CHECK_FALLS} rise 2`,
      ...nodes.map((node) => `  server ${node.name} 127.0.0.1:${node.ports[name]} check port ${node.ports.shell}`),
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Starts HAProxy with `config`; resolves once its frontends listen.
 * @param {string} config
 * @param {number[]} ports
 */
async function startHaproxy(config, ports) {
  const haproxy = locateTool('HAPROXY_PATH');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-haproxy-'));
  const file = path.join(dir, 'haproxy.cfg');
  fs.writeFileSync(file, config);
  const check = spawnSync(haproxy, ['-c', '-f', file], { encoding: 'utf8' });
  if (check.status !== 0) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`HAProxy rejected its configuration:\n${check.stdout}${check.stderr}`);
  }
  const child = spawn(haproxy, ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  try {
    await Promise.all(ports.map((port) => waitForPort(port, { what: 'HAProxy: nothing', child })));
  } catch (error) {
    child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`${error instanceof Error ? error.message : error}\n${stderr}`);
  }
  return {
    stop: async () => {
      await stopProcess(child);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * @typedef {object} TopologyNode
 * @property {string} name
 * @property {'built-in' | 'nginx'} server
 * @property {Record<string, number>} ports each deployable's port on this node
 * @property {string} copy its copy of the store (RELEASES_DIR)
 * @property {() => Promise<void>} stop
 * @property {() => void} [kill] SIGKILL, as a machine that fails (the built-in nodes)
 * @property {(signal: 'SIGSTOP' | 'SIGCONT') => void} [pause] stops or resumes the node's primary, which keeps its
 *   copy of the store (its workers go on serving from the copy): a node swapped out or stalled (the built-in nodes)
 * @property {{ degrade: (link: { delayMs: number, lossPercent: number }) => void, restore: () => void }} [link] the
 *   node's link to the database, which a test can make slow and lossy (the node `slowLinkNode` names)
 * @property {number} [metricsPort] where its metrics are (the built-in nodes)
 * @property {{ msg: string, [field: string]: unknown }[]} [logLines] its log lines so far, but its request lines (the
 *   built-in nodes)
 */

/** The CDN's port, after HAProxy's frontends. */
const CDN_OFFSET = 8;

/** The system programs the topology starts (systemTools.js: what `npm test` installs, by the same rule). */
const TOPOLOGY_TOOLS = ['PostgreSQL', 'nginx', "nginx's brotli_static module", 'HAProxy', 'Varnish'];
/** And what a slow link needs. */
const LINK_TOOLS = ['ip', 'iptables'];

/** @typedef {{ what: string, port: number }} TakenPort */

/**
 * Each deployable's port on a node, as TakenPort rows.
 * @param {string} owner
 * @param {Record<string, number>} ports
 * @returns {TakenPort[]}
 */
const portRows = (owner, ports) => Object.entries(ports).map(([name, port]) => ({ what: `${owner}: ${name}`, port }));

/**
 * Starts the topology: the store, the nodes, HAProxy, the CDN. Ports: the frontends on `base`, the CDN on base + 8,
 * each node on the 10 after the one before it; PostgreSQL, object storage and the nginx node's collector on ports the
 * system gives. A system program that is missing is installed, or the error names the command that installs it,
 * before anything starts.
 * @param {{ base: number, builtInNodes?: number, fragmentTimeoutMs?: number, slowLinkNode?: number,
 *   log?: (line: string) => void, signal?: AbortSignal }} options
 *   fragmentTimeoutMs: how long every node's documents wait for a page's HTML (the servers' default unless given);
 *   slowLinkNode: the built-in node (0 the first) that reaches the database through a link a test can degrade
 *   (slowLink.js: root only); signal: ends the start (a Ctrl+C): the node starting is stopped, nothing more starts,
 *   what did is stopped, and it rejects (with the signal's reason, or with the failure of the part it ended)
 */
async function startTopology({ base, builtInNodes = 3, fragmentTimeoutMs, slowLinkNode, log = () => {}, signal }) {
  const tools = [...TOPOLOGY_TOOLS, ...(slowLinkNode === undefined ? [] : LINK_TOOLS)];
  ensureSystemTools({ tools: toolsNamed(tools), purpose: 'the topology', log });
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-topology-'));
  // nginx's workers read the copies as another user.
  fs.chmodSync(scratch, 0o755);
  // The release commands' RELEASES_DIR: with the store on PostgreSQL they keep nothing there, but a promote's gate
  // composes the release with the live releases it finds in it; this one has none, rather than the checkout's own.
  const commandsDir = path.join(scratch, 'commands');
  fs.mkdirSync(commandsDir);
  const frontends = portsFrom(base);
  /** @type {TakenPort[]} every node's ports */
  const nodePorts = [];

  /** @type {Awaited<ReturnType<typeof startStoreServices>> | undefined} */
  let services;
  /** @type {TopologyNode[]} */
  const nodes = [];
  /** @type {{ stop: () => Promise<unknown> } | undefined} */
  let haproxy;
  /** @type {{ stop: () => Promise<unknown> } | undefined} */
  let cdn;
  /** @type {Awaited<ReturnType<typeof openSlowLink>> | undefined} */
  let link;
  // Every part is stopped even when stopping one before it fails: a part left running keeps its ports and folders.
  const stopAll = async () => {
    /** @type {unknown[]} */
    const failures = [];
    /** @param {(Promise<unknown> | undefined)[]} stops */
    const settle = async (stops) => {
      const results = await Promise.allSettled(stops);
      failures.push(...results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : [])));
    };
    // From the front to the store, so that no part is left sending requests to one already stopped.
    await settle([cdn?.stop()]);
    await settle([haproxy?.stop()]);
    await settle(nodes.map((node) => node.stop()));
    await settle([link?.close()]);
    await settle([services?.stop()]);
    fs.rmSync(scratch, { recursive: true, force: true });
    if (failures.length > 0) throw new AggregateError(failures, 'the topology did not stop cleanly');
  };
  // Between parts: a Ctrl+C that came while a part started (or before it was spawned, so that it never got the
  // signal) starts nothing more.
  const unlessEnded = () => signal?.throwIfAborted();
  try {
    // The collector beside nginx runs in this process: its SDK reads the storage's endpoint from here.
    services = await startStoreServices({ S3rver: require('s3rver') });
    unlessEnded();
    const { postgres, storage } = services;
    const store = {
      ...storage.env,
      DATABASE_URL: await postgres.migratedDatabase('site'),
      RELEASES_BUCKET: `s3://${storage.bucket}/site`,
      FIELD_DATA_SECRET: 'the-topology-field-data-secret-of-32-bytes',
    };
    log(`the store: ${store.DATABASE_URL} and ${store.RELEASES_BUCKET}`);
    if (slowLinkNode !== undefined) {
      const database = new URL(store.DATABASE_URL);
      link = await openSlowLink({ to: { host: database.hostname, port: Number(database.port) } });
    }
    /** The database as node `index` reaches it: through the link, for the node that has it. */
    const databaseUrlOf = (/** @type {number} */ index) => {
      if (index !== slowLinkNode || !link) return store.DATABASE_URL;
      const database = new URL(store.DATABASE_URL);
      database.hostname = link.host;
      database.port = String(link.port);
      return database.href;
    };
    const remotesFile = path.join(scratch, 'remotes.json');
    const remotes = shippedRemotes({
      host: '127.0.0.1',
      portOf: (page) => /** @type {number} */ (frontends[page.package]),
    });
    fs.writeFileSync(remotesFile, JSON.stringify(remotes));

    for (let index = 0; index < builtInNodes; index += 1) {
      const name = `node-${index + 1}`;
      const nodeBase = base + 10 * (index + 1);
      const metricsPort = nodeBase + 5;
      const copy = path.join(scratch, name);
      const started = await startNpmStart({
        base: nodeBase,
        metricsPort,
        workers: 1,
        remotes,
        fieldDataDir: path.join(scratch, `field-data-${index + 1}`),
        env: {
          ...store,
          DATABASE_URL: databaseUrlOf(index),
          RELEASES_DIR: copy,
          ...(fragmentTimeoutMs === undefined ? {} : { FRAGMENT_TIMEOUT_MS: String(fragmentTimeoutMs) }),
        },
        signal,
      });
      nodes.push({
        name,
        server: 'built-in',
        ports: started.ports,
        copy,
        stop: async () => void (await started.stop()),
        kill: () => started.child.kill('SIGKILL'),
        pause: (signal) => started.child.kill(signal),
        metricsPort,
        logLines: started.lines,
        ...(index === slowLinkNode && link ? { link } : {}),
      });
      nodePorts.push(...portRows(name, started.ports), { what: `${name}: metrics`, port: metricsPort });
      log(`${name}: npm start on ${nodeBase}`);
      unlessEnded();
    }
    const nginxBase = base + 10 * (builtInNodes + 1);
    const nginxCopy = path.join(scratch, 'node-nginx');
    const nginxPorts = portsFrom(nginxBase);
    // HAProxy before nginx: nginx's configuration reads each page's query parameters from its remote, through it.
    const planned = [...nodes, { name: 'node-nginx', ports: nginxPorts }];
    haproxy = await startHaproxy(haproxyConfig({ frontends, nodes: planned }), Object.values(frontends));
    unlessEnded();
    const nginx = await startNginx({
      ports: nginxPorts,
      remotesFile,
      releasesDir: nginxCopy,
      fieldDataDir: path.join(scratch, 'field-data-nginx'),
      store,
      fragmentTimeoutMs,
    });
    nodes.push({ name: 'node-nginx', server: 'nginx', ports: nginxPorts, copy: nginxCopy, stop: nginx.stop });
    nodePorts.push(
      ...portRows('node-nginx', nginxPorts),
      { what: 'node-nginx: collector', port: /** @type {number} */ (nginx.collectorPort) },
      { what: 'node-nginx: collector metrics', port: Number(new URL(nginx.collectorMetrics ?? '').port) },
    );
    log(`node-nginx: nginx on ${nginxBase}`);
    unlessEnded();
    log(`HAProxy: the site on http://127.0.0.1:${frontends.shell}`);
    const cdnPort = base + CDN_OFFSET;
    cdn = await startVarnish({ port: cdnPort, originPort: /** @type {number} */ (frontends.shell) });
    log(`Varnish: the site through the CDN on http://127.0.0.1:${cdnPort}`);
    unlessEnded();
    return {
      store,
      commandsDir,
      postgres,
      storage,
      nodes,
      frontends,
      // Every port it listens on, for a person to know what it holds.
      ports: [
        ...portRows('HAProxy', frontends),
        { what: 'Varnish (the CDN)', port: cdnPort },
        ...nodePorts,
        { what: 'PostgreSQL', port: postgres.port },
        { what: 'object storage (s3rver)', port: Number(new URL(storage.env.AWS_ENDPOINT_URL_S3 ?? '').port) },
      ],
      origin: `http://127.0.0.1:${frontends.shell}`,
      cdnPort,
      stop: stopAll,
    };
  } catch (error) {
    // The error that stopped the start is the one to report; a part that would not stop after it, only logged.
    await stopAll().catch((stopError) => log(String(stopError)));
    throw error;
  }
}

/** @typedef {Awaited<ReturnType<typeof startTopology>>} Topology */

const jobsRoute = /** @type {string} */ (deployables.find((d) => d.remote === 'jobs')?.route);
const pause = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The build of the jobs page a document from the node on `port` carries (undefined: the page's HTML is not in it),
 * for a visitor with `bucket`.
 * @param {number} port
 * @param {number} [bucket]
 */
async function documentBuild(port, bucket) {
  const headers = bucket === undefined ? undefined : { cookie: `${BUCKET_COOKIE}=${bucket}` };
  const response = await fetch(`http://127.0.0.1:${port}${jobsRoute}`, { headers });
  if (response.status !== 200) throw new Error(`port ${port} answered ${response.status}`);
  return /data-remote="jobs" data-build="([^"]+)"/.exec(await response.text())?.[1];
}

/**
 * How long after now each node's documents carry `build`; throws after `timeoutMs`.
 * @param {TopologyNode[]} nodes
 * @param {string} build
 * @param {number} [timeoutMs]
 */
function untilEveryDocument(nodes, build, timeoutMs = 10_000) {
  const started = performance.now();
  return Promise.all(
    nodes.map(async (node) => {
      while ((await documentBuild(/** @type {number} */ (node.ports.shell))) !== build) {
        if (performance.now() - started > timeoutMs) throw new Error(`${node.name} never served build ${build}`);
        await pause(10);
      }
      return performance.now() - started;
    }),
  );
}

/**
 * How long after now each node's copy names release `id` of jobs live; throws after `timeoutMs`.
 * @param {TopologyNode[]} nodes
 * @param {string} id
 * @param {number} [timeoutMs]
 */
function untilEveryCopy(nodes, id, timeoutMs = 10_000) {
  const started = performance.now();
  return Promise.all(
    nodes.map(async (node) => {
      while (readLivePointer(storeLayout(node.copy, 'jobs')).id !== id) {
        if (performance.now() - started > timeoutMs) throw new Error(`${node.name}'s copy never had ${id} live`);
        await pause(2);
      }
      return performance.now() - started;
    }),
  );
}

/**
 * How long after now each node's copy holds release `id` of jobs (put in place whole: its entry is there once it is);
 * throws after `timeoutMs`.
 * @param {TopologyNode[]} nodes
 * @param {string} id
 * @param {number} [timeoutMs]
 */
function untilEveryRelease(nodes, id, timeoutMs = 10_000) {
  const started = performance.now();
  return Promise.all(
    nodes.map(async (node) => {
      while (!fs.existsSync(path.join(storeLayout(node.copy, 'jobs').release(id), 'remoteEntry.js'))) {
        if (performance.now() - started > timeoutMs) throw new Error(`${node.name}'s copy never held ${id}`);
        await pause(2);
      }
      return performance.now() - started;
    }),
  );
}

module.exports = {
  startTopology,
  documentBuild,
  untilEveryDocument,
  untilEveryCopy,
  untilEveryRelease,
  CHECK_INTERVAL_MS,
  CHECK_FALLS,
};
