#!/usr/bin/env node
// `npm run bench`: the composed site against a monolith build of the same site (the shell with the four pages
// imported statically, no Module Federation), client-rendered and pre-rendered. Builds what is stale, serves both on loopback, measures every page
// route in headless Chromium and with Lighthouse (mobile), prints a table per route, writes it as JSON and Markdown
// into bench-results/, and exits non-zero when a budget is missed. Lighthouse also runs on the smallest React page
// (reactFloor/), the floor of any React page's start-up on this machine. See docs/performance.md.
//
// Environment: BENCH_RUNS (5), BENCH_PAINT_RUNS (41: loads per route and build for the paint times), BENCH_LIGHTHOUSE_RUNS (3, 0 to skip), BENCH_LIGHTHOUSE_MONOLITH (1, 0 to skip the
// monolith's Lighthouse runs), BENCH_LOAD_MS (4000: each load figure's duration, three rounds), BENCH_BEACON_MS (30000: each server's load with field data), BENCH_PORT_BASE (4650: composed on
// 4650-4654, monolith on 4660-4661, React floor on 4662, nginx on 4670-4674, npm start on 4680-4685), BENCH_OUT (bench-results), CHROME_PATH.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { chromium } = require('playwright-core');
const { deployables, repoRoot } = require('@nativegtm/server/deployables');
const { staleSince, sourcesOf } = require('@nativegtm/tools/buildIfNeeded');
const http = require('node:http');
const zlib = require('node:zlib');
const { createShellHandler, createShellServer } = require('@nativegtm/server/shellServer');
const { listen, close } = require('@nativegtm/server/httpServer');
const { parseTemplate, compose } = require('@nativegtm/server/ssi');
const { fragmentPaths, REMOTE_BASE } = require('@nativegtm/contract/fragments');
const { composeParts, parseComposePath } = require('@nativegtm/contract/composePaths');
const { variantKey } = require('@nativegtm/contract/pageVariant');
const { siteHead, DEFAULT_ORIGIN } = require('@nativegtm/server/siteMeta');
const { startTestSite } = require('../support/testSite');
const { startNginx } = require('../support/nginxServer');
const { startNpmStart } = require('../support/npmStart');
const { shippedRemotes } = require('@nativegtm/contract/remotesConfig');
const { portsFrom } = require('@nativegtm/contract/ports');
const { FIELD_DATA_PATH } = require('@nativegtm/contract/fieldData');
const { locateTool } = require('../support/systemTools');
const { measureVisit, measurePaint, measureNavigation } = require('./measure');
const { RECORDS_PER_BEACON } = require('./load');
const { probe } = require('./probe');
const { treeCpuSeconds } = require('./processCpu');
const { CHROME_ARGS, runLighthouse } = require('./lighthouse');
const { median, summarizeLighthouse, summarizeVisits } = require('./report/statistics');
const { evaluateBudgets } = require('./report/budgets');
const { renderText } = require('./report/renderText');
const { renderMarkdown } = require('./report/renderMarkdown');

/** @typedef {import('./measure').Visit} Visit */
/** @typedef {import('./measure').Paint} Paint */
/** @typedef {import('./report/statistics').LighthouseSummary} LighthouseSummary */
/** @typedef {import('../support/testSite').TestSite} TestSite */
/** @typedef {'composed' | 'monolith' | 'prerendered'} Variant  a build measured (prerendered: the pre-rendered monolith) */

const routes = /** @type {const} */ ([
  { path: '/', heading: 'Land high-paying AI-native GTM jobs' },
  { path: '/employers', heading: 'Hire Vetted AI-Native GTM Talent' },
  { path: '/featured-jobs', heading: 'Featured Jobs' },
  { path: '/coming-soon', heading: 'NativeGTM is Coming Soon' },
]);
/** @typedef {(typeof routes)[number]} Route */
/** @typedef {Route['path']} RoutePath */
const navigations = [{ from: '/', to: '/employers', linkName: 'Employers' }];

/**
 * @param {string} path
 * @returns {string} the h1 of the route at `path`
 */
function headingOf(path) {
  const route = routes.find((candidate) => candidate.path === path);
  if (!route) throw new Error(`The bench measures no route ${path}.`);
  return route.heading;
}

/**
 * @param {string} name
 * @param {number} fallback
 */
const envNumber = (name, fallback) => (process.env[name] === undefined ? fallback : Number(process.env[name]));
const settings = {
  runs: envNumber('BENCH_RUNS', 5),
  paintRuns: envNumber('BENCH_PAINT_RUNS', 41),
  lighthouseRuns: envNumber('BENCH_LIGHTHOUSE_RUNS', 3),
  lighthouseMonolith: envNumber('BENCH_LIGHTHOUSE_MONOLITH', 1) > 0,
  portBase: envNumber('BENCH_PORT_BASE', 4650),
  loadMs: envNumber('BENCH_LOAD_MS', 4000),
  beaconMs: envNumber('BENCH_BEACON_MS', 30_000),
  out: path.resolve(repoRoot, process.env.BENCH_OUT || 'bench-results'),
};
/** Connections of the load figures, and how many rounds of them (each BENCH_LOAD_MS per target). */
const LOAD_CONNECTIONS = 100;
/**
 * Field-data records a second posted beside the documents' load, from one client as behind a CDN: beacons of
 * RECORDS_PER_BEACON records (one page view each), as visitors' browsers send them.
 */
const RECORDS_PER_SECOND = 2000;
const BEACONS_PER_SECOND = Math.round(RECORDS_PER_SECOND / RECORDS_PER_BEACON);
const LOAD_ROUNDS = 3;

/** @param {string} line */
const log = (line) => console.log(line);
const monolithDir = path.join(__dirname, 'monolith');
const monolithDist = path.join(monolithDir, 'dist');
const reactFloorDir = path.join(__dirname, 'reactFloor');
const reactFloorDist = path.join(reactFloorDir, 'dist');

/**
 * Builds one of the bench's reference builds (its webpack.config.js, into its dist/) when any of its sources is newer.
 * @param {string} label
 * @param {string} dir  the folder of its webpack.config.js
 * @param {string[]} sources
 */
function buildReferenceIfNeeded(label, dir, sources) {
  const built = path.join(dir, 'dist', 'index.html');
  const reason = staleSince(built, sources);
  if (!reason) return;
  log(`Building the ${label} (${reason})…`);
  const config = path.join(dir, 'webpack.config.js');
  const result = spawnSync('npx', ['--no-install', 'nativegtm-webpack', '--mode', 'production', '--config', config], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`Building the ${label} failed (exit code ${result.status}).`);
  const now = new Date();
  fs.utimesSync(built, now, now);
}

/** The monolith compiles the shell and the four pages: it is stale when any of their sources changed. */
const buildMonolithIfNeeded = () =>
  buildReferenceIfNeeded('monolith', monolithDir, [
    ...deployables.flatMap(sourcesOf),
    path.join(monolithDir, 'index.ts'),
    path.join(monolithDir, 'webpack.config.js'),
  ]);

/** The smallest React page (reactFloor/webpack.config.js): the floor of any React page's start-up on this machine. */
const buildReactFloorIfNeeded = () =>
  buildReferenceIfNeeded(
    'React floor',
    reactFloorDir,
    ['floorPage.js', 'index.tsx', 'webpack.config.js'].map((file) => path.join(reactFloorDir, file)),
  );

/**
 * The pre-rendered monolith: the monolith's bundle with each page's HTML in its document, as a one-bundle site that
 * renders its pages at build time would serve them. The HTML is the remotes' own server render (the same components,
 * class names and ids as the monolith renders), marked with the monolith's build id so its bundle hydrates it; the
 * head is the page's title and description without the remote's stylesheets (the monolith links its own). Documents
 * are compressed once, as a static host would.
 */
async function prerenderedMonolithDocuments() {
  const template = parseTemplate(fs.readFileSync(path.join(monolithDist, 'index.html'), 'utf8'));
  /** @type {Record<string, { identity: Buffer, br: Buffer, gzip: Buffer }>} */
  const documents = {};
  for (const route of routes) {
    const remote = deployables.find((d) => d.route === route.path);
    if (!remote?.remote) throw new Error(`No remote renders ${route.path}.`);
    const read = (/** @type {string} */ file) => fs.readFileSync(path.join(remote.dir, 'dist', file), 'utf8');
    const manifest = /** @type {import('@nativegtm/contract/fragments').PageManifest} */ (
      JSON.parse(read(fragmentPaths.manifest))
    );
    const head = read(fragmentPaths.head)
      .split('\n')
      .filter((line) => !line.includes(REMOTE_BASE))
      .join('\n');
    const body = read(fragmentPaths.body(variantKey(manifest.query, ''))).replace(
      /data-build="[^"]*"/,
      'data-build="monolith"',
    );
    const html = await compose(template, { page: remote.remote, args: '' }, async (virtual) => {
      const part = parseComposePath(virtual)?.part;
      if (part === composeParts.pageHead) return head;
      if (part === composeParts.siteHead) return siteHead(DEFAULT_ORIGIN, route.path);
      if (part === composeParts.pageBody) return body;
      return '';
    });
    documents[route.path] = {
      identity: Buffer.from(html),
      br: zlib.brotliCompressSync(html),
      gzip: zlib.gzipSync(html, { level: 9 }),
    };
  }
  return documents;
}

/** @param {number} port */
async function startPrerenderedMonolith(port) {
  const documents = await prerenderedMonolithDocuments();
  const files = createShellHandler({ root: monolithDist, name: 'monolith' });
  const server = http.createServer((req, res) => {
    // A server's requests always have a URL.
    const document = documents[new URL(/** @type {string} */ (req.url), 'http://bench.invalid').pathname];
    if (!document) return files(req, res);
    const accepted = String(req.headers['accept-encoding'] ?? '');
    const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : 'identity';
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache');
    if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
    return res.end(document[encoding]);
  });
  await listen(server, port, 'pre-rendered monolith');
  return server;
}

/**
 * Maps a URL of a variant to the file in a dist/ folder that served it (for the source-map check).
 * @param {Record<number, string>} roots  dist/ folders by the port that serves them
 */
function distResolver(roots) {
  return (/** @type {string} */ url) => {
    const { port, pathname } = new URL(url);
    const root = roots[Number(port)];
    if (!root || pathname.includes('..')) return undefined;
    const file = path.join(root, decodeURIComponent(pathname));
    return fs.existsSync(file) ? file : undefined;
  };
}

/**
 * Counts the requests the remotes' servers get for their server-rendered files (ssr/) while `work` runs: what the
 * document server costs the remotes, per second.
 * @template T
 * @param {TestSite} site
 * @param {() => Promise<T>} work
 */
async function fragmentRequestsPerSecond(site, work) {
  let count = 0;
  const onRequest = (/** @type {http.IncomingMessage} */ request) => {
    if (request.url?.includes('/ssr/')) count += 1;
  };
  const remotes = site.servers.filter(({ deployable }) => deployable.role === 'remote').map(({ server }) => server);
  remotes.forEach((server) => server.on('request', onRequest));
  const started = Date.now();
  try {
    const result = await work();
    return { result, perSecond: count / ((Date.now() - started) / 1000) };
  } finally {
    remotes.forEach((server) => server.off('request', onRequest));
  }
}

/**
 * Time to first byte of each page route and page requests/s with 100 connections, on the document server at
 * `origin`; with `site` (the built-in one, in this process), also the requests its remotes get for fragments while
 * each page is asked for once a second.
 * @param {string} origin
 * @param {TestSite} [site]
 * @returns {Promise<import('./report/serverCost').ServerCost>}
 */
async function measureServer(origin, site) {
  const urls = routes.map((route) => `${origin}${route.path}`);
  /** @param {Record<string, number>} byUrl  load.js's answer, which has every URL it was given */
  const byRoute = (byUrl) =>
    Object.fromEntries(routes.map((route) => [route.path, /** @type {number} */ (byUrl[`${origin}${route.path}`])]));
  // First, while the server has fetched nothing yet: its first request of each page is a cold one. The requests its
  // remotes get meanwhile are counted where they are this process's own servers (the built-in site).
  const quietProbe = async () => /** @type {import('./load').QuietTtfbResult} */ (await probe(['quiet-ttfb', ...urls]));
  const quiet = site
    ? await fragmentRequestsPerSecond(site, quietProbe)
    : { result: await quietProbe(), perSecond: undefined };
  const ttfb = byRoute(/** @type {import('./load').TtfbResult} */ (await probe(['ttfb', ...urls])));
  const rate = /** @type {import('./load').RateResult} */ (await probe(['rate', '100', '5000', ...urls]));
  return {
    ttfb,
    quietTtfb: byRoute(quiet.result.steady),
    firstTtfb: byRoute(quiet.result.first),
    fragmentRequestsPerSecond: quiet.perSecond,
    rate,
  };
}

/**
 * The shell's static file closest in size to the documents, as nginx sends both without compression: the reference
 * the load budgets are ratios of.
 * @param {number} documentBytes
 */
function staticFileLike(documentBytes) {
  const shell = /** @type {import('@nativegtm/server/deployables').Deployable} */ (
    deployables.find((d) => d.role === 'host')
  );
  const dist = path.join(shell.dir, 'dist');
  const files = fs
    .readdirSync(dist)
    .filter((name) => /\.[0-9a-f]{10}\.(js|css)$/.test(name))
    .map((name) => ({ path: `/${name}`, bytes: fs.statSync(path.join(dist, name)).size }));
  const closest = files.reduce((best, file) =>
    Math.abs(file.bytes - documentBytes) < Math.abs(best.bytes - documentBytes) ? file : best,
  );
  return closest;
}

/**
 * @param {string} origin
 * @param {string[]} paths
 * @returns {Promise<import('./load').CannonResult>}
 */
async function cannon(origin, paths) {
  const urls = paths.map((route) => `${origin}${route}`);
  return /** @type {import('./load').CannonResult} */ (
    await probe(['cannon', String(LOAD_CONNECTIONS), String(settings.loadMs), ...urls])
  );
}

/**
 * A cannon of the server whose processes are `pids` (and their children), with the CPU time they spent per request,
 * in microseconds; `inProcess`: also this process's (nginx's collector runs in it, and composes its documents).
 * @param {string} origin
 * @param {string[]} paths
 * @param {number[]} pids
 * @param {boolean} [inProcess]
 */
async function cannonWithCpu(origin, paths, pids, inProcess = false) {
  const before = treeCpuSeconds(pids);
  const own = process.cpuUsage();
  const result = await cannon(origin, paths);
  const ownSeconds = inProcess ? Object.values(process.cpuUsage(own)).reduce((sum, us) => sum + us, 0) / 1e6 : 0;
  const seconds = treeCpuSeconds(pids) - before + ownSeconds;
  return { ...result, cpuUs: (seconds * 1e6) / (result.requests + result.warmUpRequests) };
}

/**
 * The documents' load from one server with field-data beacons posted to it in every other second (load.js alternating).
 * @param {string} origin
 * @param {string[]} paths
 */
async function alternating(origin, paths) {
  const urls = paths.map((route) => `${origin}${route}`);
  return /** @type {import('./load').AlternatingResult} */ (
    await probe([
      'alternating',
      String(LOAD_CONNECTIONS),
      String(settings.beaconMs),
      String(BEACONS_PER_SECOND),
      `${origin}${FIELD_DATA_PATH}`,
      ...urls,
    ])
  );
}

/**
 * The same measures against nginx with the generated configuration (ports portBase+20..+24), serving the five
 * dist/ folders and composing documents from its own remote servers, as a single-host deployment does; then the
 * load figures the budgets judge (docs/performance.md): a static file and the documents from that nginx, and the
 * documents from `npm start` (portBase+30..+35), each at 100 connections in turn. Skipped, with a line saying so,
 * without nginx.
 * @returns {Promise<{ nginxServer: import('./report/serverCost').ServerCost, load: import('./report/serverCost').LoadFigures } | undefined>}
 */
async function measureNginx() {
  let nginx;
  try {
    locateTool('NGINX_PATH');
  } catch (error) {
    log(`  nginx not measured: ${String(error instanceof Error ? error.message : error).split('\n')[0]}`);
    return undefined;
  }
  const ports = portsFrom(settings.portBase + 20);
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-bench-nginx-'));
  fs.chmodSync(folder, 0o755);
  const remotesFile = path.join(folder, 'remotes.json');
  fs.writeFileSync(
    remotesFile,
    // portsFrom has every page's package.
    JSON.stringify(
      shippedRemotes({ host: '127.0.0.1', portOf: (page) => /** @type {number} */ (ports[page.package]) }),
    ),
  );
  const paths = routes.map((route) => route.path);
  try {
    nginx = await startNginx({ ports, remotesFile, fieldDataDir: path.join(folder, 'field-data') });
    const origin = `http://127.0.0.1:${ports.shell}`;
    const nginxServer = await measureServer(origin);
    const sizes = await Promise.all(
      paths.map(async (route) => (await (await fetch(`${origin}${route}`)).arrayBuffer()).byteLength),
    );
    const documentBytes = Math.round(sizes.reduce((sum, size) => sum + size, 0) / sizes.length);
    const staticFile = staticFileLike(documentBytes);
    log('  load: npm start (a worker per core) starts beside nginx…');
    const site = await startNpmStart({
      base: settings.portBase + 30,
      metricsPort: settings.portBase + 35,
      fieldDataDir: path.join(folder, 'field-data-npm-start'),
    });
    /**
     * @type {{ static: import('./load').CannonResult[], nginx: import('./load').CannonResult[],
     *   builtIn: import('./load').CannonResult[] }}
     */
    const rounds = { static: [], nginx: [], builtIn: [] };
    const builtInOrigin = `http://127.0.0.1:${site.ports.shell}`;
    /** @type {{ nginx: import('./load').AlternatingResult, builtIn: import('./load').AlternatingResult }} */
    let beacons;
    try {
      // In rounds, the three one after the other, so that a machine that gets busier or quieter during the run moves
      // all three alike; each ratio is then taken per round.
      for (let round = 0; round < LOAD_ROUNDS; round += 1) {
        log(
          `  load, round ${round + 1}/${LOAD_ROUNDS}: ${staticFile.path} (${staticFile.bytes} bytes) from nginx, ` +
            `the documents (${documentBytes} bytes on average) from nginx, then from npm start`,
        );
        rounds.static.push(await cannonWithCpu(origin, [staticFile.path], [nginx.pid]));
        rounds.nginx.push(await cannonWithCpu(origin, paths, [nginx.pid], true));
        rounds.builtIn.push(await cannonWithCpu(builtInOrigin, paths, [/** @type {number} */ (site.child.pid)]));
      }
      log(
        `  load with field data: the documents from nginx, then from npm start, for ${settings.beaconMs / 1000} s ` +
          `each, with ${RECORDS_PER_SECOND} records a second (${BEACONS_PER_SECOND} beacons) posted in every other second`,
      );
      beacons = { nginx: await alternating(origin, paths), builtIn: await alternating(builtInOrigin, paths) };
    } finally {
      await site.stop();
    }
    return {
      nginxServer,
      load: {
        connections: LOAD_CONNECTIONS,
        seconds: settings.loadMs / 1000,
        documentBytes,
        staticFile,
        ...rounds,
        beacons,
      },
    };
  } finally {
    await nginx?.stop();
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

/** @typedef {Record<Variant, { origin: string, distFor: (url: string) => string | undefined }>} Variants */

/**
 * Starts what the bench measures on loopback: the composed site, the monolith client-rendered and pre-rendered, and
 * the React floor, building the reference builds that are stale.
 */
async function startSites() {
  const site = await startTestSite({ base: settings.portBase, log });
  buildMonolithIfNeeded();
  const monolithPort = settings.portBase + 10;
  const monolithServer = createShellServer({ root: monolithDist, name: 'monolith' });
  await listen(monolithServer, monolithPort, 'monolith');
  const prerenderedPort = settings.portBase + 11;
  const prerenderedServer = await startPrerenderedMonolith(prerenderedPort);
  buildReactFloorIfNeeded();
  const reactFloorPort = settings.portBase + 12;
  const reactFloorServer = createShellServer({ root: reactFloorDist, name: 'React floor' });
  await listen(reactFloorServer, reactFloorPort, 'React floor');

  /** @type {Variants} */
  const variants = {
    composed: {
      origin: `http://localhost:${site.ports.shell}`,
      distFor: distResolver(Object.fromEntries(deployables.map((d) => [site.ports[d.name], path.join(d.dir, 'dist')]))),
    },
    monolith: {
      origin: `http://localhost:${monolithPort}`,
      distFor: distResolver({ [monolithPort]: monolithDist }),
    },
    prerendered: {
      origin: `http://localhost:${prerenderedPort}`,
      distFor: distResolver({ [prerenderedPort]: monolithDist }),
    },
  };
  log(
    `composed: ${variants.composed.origin}   monolith: ${variants.monolith.origin}   ` +
      `pre-rendered monolith: ${variants.prerendered.origin}`,
  );
  return {
    site,
    variants,
    reactFloorUrl: `http://localhost:${reactFloorPort}/`,
    stop: async () => {
      await close(reactFloorServer);
      await close(monolithServer);
      await close(prerenderedServer);
      await site.stop();
    },
  };
}

/**
 * The document servers' cost: the built-in server of the composed site, then nginx and the load figures.
 * @param {Awaited<ReturnType<typeof startSites>>} sites
 */
async function measureServerCost({ site, variants }) {
  log('Server cost (time to first byte, requests/s)…');
  const server = await measureServer(variants.composed.origin, site);
  log(
    `  ${JSON.stringify(server.ttfb)}; one a second ${JSON.stringify(server.quietTtfb)}; ` +
      `first request ${JSON.stringify(server.firstTtfb)}; ` +
      `remotes asked ${server.fragmentRequestsPerSecond?.toFixed(1)} times a second for fragments; ` +
      `${Math.round(server.rate.requestsPerSecond)} requests/s`,
  );
  log('Server cost of nginx with the generated configuration, and the load figures…');
  const measuredNginx = await measureNginx();
  const nginxServer = measuredNginx?.nginxServer;
  if (nginxServer) {
    log(
      `  ${JSON.stringify(nginxServer.ttfb)}; one a second ${JSON.stringify(nginxServer.quietTtfb)}; ` +
        `${Math.round(nginxServer.rate.requestsPerSecond)} requests/s`,
    );
  }
  return { server, nginxServer, load: measuredNginx?.load };
}

/**
 * One empty list per route and build.
 * @template T
 * @returns {Record<RoutePath, Record<Variant, T[]>>}
 */
function listsByRouteAndVariant() {
  // Every route's key is there from the start.
  return /** @type {Record<RoutePath, Record<Variant, T[]>>} */ (
    Object.fromEntries(
      routes.map((route) => [
        route.path,
        /** @type {Record<Variant, T[]>} */ ({ composed: [], monolith: [], prerendered: [] }),
      ]),
    )
  );
}

/**
 * The order of the builds in round `run`: alternated, so that neither always runs on a warmer (or busier) machine.
 * @param {number} run
 * @returns {Variant[]}
 */
const variantOrder = (run) =>
  run % 2 ? ['prerendered', 'monolith', 'composed'] : ['composed', 'monolith', 'prerendered'];

/**
 * One instrumented load of a route of a build (measureVisit).
 * @param {import('playwright-core').Browser} browser
 * @param {Variants} variants
 * @param {Variant} variant
 * @param {Route} route
 */
const visit = (browser, variants, variant, route) =>
  measureVisit(browser, {
    url: `${variants[variant].origin}${route.path}`,
    heading: route.heading,
    distFor: variants[variant].distFor,
  });

/**
 * A round of every route of every build, not counted: a server's first answers for a route cost more than the next
 * ones (its first request, in the server cost), and the figures are about the next ones.
 * @param {import('playwright-core').Browser} browser
 * @param {Variants} variants
 */
async function warmUp(browser, variants) {
  log('Warm-up run (not counted)…');
  for (const route of routes) {
    for (const variant of /** @type {Variant[]} */ (Object.keys(variants)))
      await visit(browser, variants, variant, route);
  }
}

/**
 * BENCH_RUNS rounds of instrumented loads of every route of every build, each round with the navigations.
 * @param {import('playwright-core').Browser} browser
 * @param {Variants} variants
 */
async function instrumentedRounds(browser, variants) {
  /** @type {Record<RoutePath, Record<Variant, Visit[]>>} */
  const visits = listsByRouteAndVariant();
  const navigationRuns = navigations.map((navigation) => ({
    ...navigation,
    /** @type {Record<'composed' | 'monolith', number[]>} */
    times: { composed: [], monolith: [] },
  }));
  for (let run = 0; run < settings.runs; run += 1) {
    const order = variantOrder(run);
    for (const route of routes) {
      for (const variant of order) visits[route.path][variant].push(await visit(browser, variants, variant, route));
    }
    for (const navigation of navigationRuns) {
      for (const variant of order.filter((name) => name !== 'prerendered')) {
        navigation.times[variant].push(
          await measureNavigation(browser, {
            url: `${variants[variant].origin}${navigation.from}`,
            linkName: navigation.linkName,
            startHeading: headingOf(navigation.from),
            heading: headingOf(navigation.to),
          }),
        );
      }
    }
    const home = visits['/'];
    // Each was just measured, so neither list is empty.
    const latest = (/** @type {Visit[]} */ list) => /** @type {Visit} */ (list.at(-1));
    const figures = (/** @type {Visit} */ v) =>
      `${Math.round(v.jsBytes / 1000)} KB LCP ${v.lcp === null ? 'n/a' : Math.round(v.lcp)} ms`;
    log(
      `run ${run + 1}/${settings.runs}: / composed ${figures(latest(home.composed))}, ` +
        `monolith ${figures(latest(home.monolith))}`,
    );
  }
  return { visits, navigationRuns };
}

/**
 * Paint times from their own, lighter loads, many of them (see measurePaint), alternating the order of the builds.
 * @param {import('playwright-core').Browser} browser
 * @param {Variants} variants
 */
async function paintLoads(browser, variants) {
  /** @type {Record<RoutePath, Record<Variant, Paint[]>>} */
  const paints = listsByRouteAndVariant();
  log(`Paint times (${settings.paintRuns} loads per route and build)…`);
  for (let run = 0; run < settings.paintRuns; run += 1) {
    for (const route of routes) {
      for (const variant of variantOrder(run)) {
        paints[route.path][variant].push(
          await measurePaint(browser, { url: `${variants[variant].origin}${route.path}` }),
        );
      }
    }
  }
  return paints;
}

/**
 * The loads in headless Chromium: a warm-up round, the instrumented rounds (with the navigations), then the paint
 * loads.
 * @param {string} chromePath
 * @param {Variants} variants
 */
async function measureInChromium(chromePath, variants) {
  const browser = await chromium.launch({ executablePath: chromePath, args: CHROME_ARGS });
  try {
    const chromiumVersion = browser.version();
    await warmUp(browser, variants);
    const { visits, navigationRuns } = await instrumentedRounds(browser, variants);
    const paints = await paintLoads(browser, variants);
    return { chromiumVersion, loads: { visits, paints, navigationRuns } };
  } finally {
    await browser.close();
  }
}

/**
 * Lighthouse on every route of the builds it runs on, then on the React floor; nothing when BENCH_LIGHTHOUSE_RUNS
 * is 0.
 * @param {string} chromePath
 * @param {Awaited<ReturnType<typeof startSites>>} sites
 */
async function measureLighthouse(chromePath, { variants, reactFloorUrl }) {
  /** @type {Record<Variant, Record<string, LighthouseSummary | null>>} */
  const lighthouse = { composed: {}, monolith: {}, prerendered: {} };
  /** @type {LighthouseSummary | null} */
  let reactFloor = null;
  if (settings.lighthouseRuns > 0) {
    log('Lighthouse (mobile)…');
    const lighthouseOptions = { chromePath, args: CHROME_ARGS, runs: settings.lighthouseRuns, log };
    /** @type {Variant[]} */
    const targets = settings.lighthouseMonolith ? ['composed', 'monolith', 'prerendered'] : ['composed'];
    for (const variant of targets) {
      const byUrl = await runLighthouse(
        routes.map((route) => `${variants[variant].origin}${route.path}`),
        lighthouseOptions,
      );
      for (const route of routes) {
        lighthouse[variant][route.path] = summarizeLighthouse(byUrl[`${variants[variant].origin}${route.path}`]);
      }
    }
    reactFloor = summarizeLighthouse((await runLighthouse([reactFloorUrl], lighthouseOptions))[reactFloorUrl]);
  }
  return { lighthouse, reactFloor };
}

/**
 * The run's figures as the report holds them, summarized, with every budget judged.
 * @param {Awaited<ReturnType<typeof measureAll>>} figures
 * @returns {import('./report/benchReport').BenchReport}
 */
function benchResult({ serverCost, chromiumVersion, loads, lighthouse }) {
  const { visits, paints, navigationRuns } = loads;
  const measured = {
    date: new Date().toISOString(),
    environment: { node: process.version, chromium: `Chromium ${chromiumVersion}`, cpus: os.cpus().length },
    settings,
    ...serverCost,
    routes: routes.map((route) => ({
      path: route.path,
      composed: summarizeVisits(visits[route.path].composed, paints[route.path].composed),
      monolith: summarizeVisits(visits[route.path].monolith, paints[route.path].monolith),
      prerendered: summarizeVisits(visits[route.path].prerendered, paints[route.path].prerendered),
      lighthouse:
        settings.lighthouseRuns > 0
          ? {
              composed: lighthouse.lighthouse.composed[route.path] ?? null,
              monolith: lighthouse.lighthouse.monolith[route.path] ?? null,
              prerendered: lighthouse.lighthouse.prerendered[route.path] ?? null,
            }
          : null,
    })),
    navigations: navigationRuns.map(({ from, to, times }) => ({
      from,
      to,
      composed: { median: median(times.composed), runs: times.composed },
      monolith: { median: median(times.monolith), runs: times.monolith },
    })),
    reactFloor: lighthouse.reactFloor,
  };
  return { ...measured, budgets: evaluateBudgets(measured) };
}

/**
 * Writes the result as JSON and Markdown into BENCH_OUT, dated and as latest.{json,md}.
 * @param {import('./report/benchReport').BenchReport} result
 */
function writeResults(result) {
  fs.mkdirSync(settings.out, { recursive: true });
  const stamp = result.date.replace(/[:.]/g, '-');
  for (const name of [`bench-${stamp}`, 'latest']) {
    fs.writeFileSync(path.join(settings.out, `${name}.json`), `${JSON.stringify(result, null, 2)}\n`);
    fs.writeFileSync(path.join(settings.out, `${name}.md`), renderMarkdown(result));
  }
}

/**
 * Every measurement, in order, on the sites started.
 * @param {Awaited<ReturnType<typeof startSites>>} sites
 */
async function measureAll(sites) {
  const serverCost = await measureServerCost(sites);
  const chromePath = locateTool('CHROME_PATH');
  const { chromiumVersion, loads } = await measureInChromium(chromePath, sites.variants);
  const lighthouse = await measureLighthouse(chromePath, sites);
  return { serverCost, chromiumVersion, loads, lighthouse };
}

/**
 * Says how many budgets the run missed, and makes the process exit 1 when any was; and how many it could not judge
 * (what they are judged against was not measured), which the report shows as such.
 * @param {import('./report/budgets').Budget[]} budgets
 */
function reportBudgetVerdicts(budgets) {
  const unjudged = budgets.filter((budget) => budget.met === null);
  if (unjudged.length) console.error(`\n${unjudged.length} budget(s) not judged.`);
  const missed = budgets.filter((budget) => budget.met === false);
  if (missed.length) {
    console.error(`\n${missed.length} budget(s) missed.`);
    process.exitCode = 1;
  }
}

async function main() {
  const started = Date.now();
  const sites = await startSites();
  const figures = await measureAll(sites).finally(sites.stop);
  const result = benchResult(figures);
  console.log(renderText(result));
  writeResults(result);
  log(
    `\nWritten to ${path.relative(process.cwd(), settings.out) || '.'}/latest.{json,md} in ${Math.round((Date.now() - started) / 1000)} s`,
  );
  reportBudgetVerdicts(result.budgets);
}

module.exports = { startPrerenderedMonolith };

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
