#!/usr/bin/env node
// `npm run bench`: the composed site against a monolith build of the same site (the shell with the four pages
// imported statically, no Module Federation), client-rendered and pre-rendered. Builds what is stale, serves both on loopback, measures every page
// route in headless Chromium and with Lighthouse (mobile), prints a table per route, writes it as JSON and Markdown
// into bench-results/, and exits non-zero when a budget is missed. See docs/performance.md.
//
// Environment: BENCH_RUNS (5), BENCH_PAINT_RUNS (41: loads per route and build for the paint times), BENCH_LIGHTHOUSE_RUNS (3, 0 to skip), BENCH_LIGHTHOUSE_MONOLITH (1, 0 to skip the
// monolith's Lighthouse runs), BENCH_PORT_BASE (4650: composed on 4650-4654, monolith on 4660), BENCH_OUT
// (bench-results), CHROME_PATH.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const { chromium } = require('playwright-core');
const { deployables, repoRoot } = require('@nativegtm/server/deployables');
const { staleSince, sourcesOf } = require('@nativegtm/server/buildIfNeeded');
const http = require('node:http');
const zlib = require('node:zlib');
const { createStaticHandler, createStaticServer, listen, close } = require('@nativegtm/server/staticServer');
const { parseTemplate, compose } = require('@nativegtm/server/ssi');
const { fragmentPaths, REMOTE_BASE } = require('@nativegtm/contract/fragments');
const { composeParts, parseComposePath } = require('@nativegtm/contract/composePaths');
const { variantKey } = require('@nativegtm/contract/pageVariant');
const { siteHead, DEFAULT_ORIGIN } = require('@nativegtm/server/siteMeta');
const { startTestSite } = require('../support/testSite');
const { startNginx } = require('../support/nginxServer');
const { shippedRemotes } = require('@nativegtm/contract/remotesConfig');
const { locateTool } = require('../support/systemTools');
const { measureVisit, measurePaint, measureNavigation } = require('./measure');
const { runLighthouse } = require('./lighthouse');
const {
  evaluateBudgets,
  median,
  renderMarkdown,
  renderText,
  summarizeLighthouse,
  summarizeVisits,
} = require('./report');

const routes = [
  { path: '/', heading: 'Land high-paying AI-native GTM jobs' },
  { path: '/employers', heading: 'Hire Vetted AI-Native GTM Talent' },
  { path: '/featured-jobs', heading: 'Featured Jobs' },
  { path: '/coming-soon', heading: 'NativeGTM is Coming Soon' },
];
const navigations = [{ from: '/', to: '/employers', linkName: 'Employers' }];

const envNumber = (name, fallback) => (process.env[name] === undefined ? fallback : Number(process.env[name]));
const settings = {
  runs: envNumber('BENCH_RUNS', 5),
  paintRuns: envNumber('BENCH_PAINT_RUNS', 41),
  lighthouseRuns: envNumber('BENCH_LIGHTHOUSE_RUNS', 3),
  lighthouseMonolith: envNumber('BENCH_LIGHTHOUSE_MONOLITH', 1) > 0,
  portBase: envNumber('BENCH_PORT_BASE', 4650),
  out: path.resolve(repoRoot, process.env.BENCH_OUT || 'bench-results'),
};
const CHROME_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

const log = (line) => console.log(line);
const monolithDir = path.join(__dirname, 'monolith');
const monolithDist = path.join(monolithDir, 'dist');

/** The monolith compiles the shell and the four pages: it is stale when any of their sources changed. */
function buildMonolithIfNeeded() {
  const sources = [
    ...deployables.flatMap(sourcesOf),
    path.join(monolithDir, 'index.ts'),
    path.join(monolithDir, 'webpack.config.js'),
  ];
  const reason = staleSince(path.join(monolithDist, 'index.html'), sources);
  if (!reason) return;
  log(`Building the monolith (${reason})…`);
  const config = path.join(monolithDir, 'webpack.config.js');
  const result = spawnSync('npx', ['webpack', '--mode', 'production', '--config', config], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`Building the monolith failed (exit code ${result.status}).`);
  const now = new Date();
  fs.utimesSync(path.join(monolithDist, 'index.html'), now, now);
}

/**
 * The pre-rendered monolith: the monolith's bundle with each page's HTML in its document, as a one-bundle site that
 * renders its pages at build time would serve them. The HTML is the remotes' own server render (the same components,
 * class names and ids as the monolith renders), marked with the monolith's build id so its bundle hydrates it; the
 * head is the page's title and description without the remote's stylesheets (the monolith links its own). Documents
 * are compressed once, as a static host would.
 */
async function prerenderedMonolithDocuments() {
  const template = parseTemplate(fs.readFileSync(path.join(monolithDist, 'index.html'), 'utf8'));
  const documents = {};
  for (const route of routes) {
    const remote = deployables.find((d) => d.route === route.path);
    const read = (file) => fs.readFileSync(path.join(remote.dir, 'dist', file), 'utf8');
    const manifest = JSON.parse(read(fragmentPaths.manifest));
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

async function startPrerenderedMonolith(port) {
  const documents = await prerenderedMonolithDocuments();
  const files = createStaticHandler({ root: monolithDist });
  const server = http.createServer((req, res) => {
    const document = documents[new URL(req.url, 'http://bench.invalid').pathname];
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

/** Maps a URL of a variant to the file in a dist/ folder that served it (for the source-map check). */
function distResolver(roots) {
  return (url) => {
    const { port, pathname } = new URL(url);
    const root = roots[Number(port)];
    if (!root || pathname.includes('..')) return undefined;
    const file = path.join(root, decodeURIComponent(pathname));
    return fs.existsSync(file) ? file : undefined;
  };
}

/** Runs tests/bench/load.js in its own process (the server keeps this one's event loop) and returns its JSON. */
function probe(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(__dirname, 'load.js'), ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`load.js exited with ${code}`)),
    );
  });
}

/**
 * Counts the requests the remotes' servers get for their server-rendered files (ssr/) while `work` runs: what the
 * document server costs the remotes, per second.
 */
async function fragmentRequestsPerSecond(site, work) {
  let count = 0;
  const onRequest = (request) => {
    if (request.url.includes('/ssr/')) count += 1;
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
 */
async function measureServer(origin, site) {
  const urls = routes.map((route) => `${origin}${route.path}`);
  const byRoute = (byUrl) => Object.fromEntries(routes.map((route) => [route.path, byUrl[`${origin}${route.path}`]]));
  // First, while the server has fetched nothing yet: its first request of each page is a cold one. The requests its
  // remotes get meanwhile are counted where they are this process's own servers (the built-in site).
  const quietProbe = () => probe(['quiet-ttfb', ...urls]);
  const quiet = site ? await fragmentRequestsPerSecond(site, quietProbe) : { result: await quietProbe() };
  const ttfb = byRoute(await probe(['ttfb', ...urls]));
  const rate = await probe(['rate', '100', '5000', ...urls]);
  return {
    ttfb,
    quietTtfb: byRoute(quiet.result.steady),
    firstTtfb: byRoute(quiet.result.first),
    fragmentRequestsPerSecond: quiet.perSecond,
    rate,
  };
}

/**
 * The same measures against nginx with the generated configuration (ports portBase+20..+24), serving the five
 * dist/ folders and composing documents from its own remote servers, as a single-host deployment does. nginx keeps
 * no copy of fragments: every document makes its two includes. Skipped, with a line saying so, without nginx.
 */
async function measureNginx() {
  let nginx;
  try {
    locateTool('NGINX_PATH');
  } catch (error) {
    log(`  nginx not measured: ${error.message.split('\n')[0]}`);
    return undefined;
  }
  const ports = Object.fromEntries(deployables.map((d) => [d.name, settings.portBase + 20 + (d.port - 3000)]));
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-bench-nginx-'));
  fs.chmodSync(folder, 0o755);
  const remotesFile = path.join(folder, 'remotes.json');
  fs.writeFileSync(
    remotesFile,
    JSON.stringify(shippedRemotes({ host: '127.0.0.1', portOf: (page) => ports[page.package] })),
  );
  try {
    nginx = await startNginx({ ports, remotesFile });
    return await measureServer(`http://127.0.0.1:${ports.shell}`);
  } finally {
    await nginx?.stop();
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

async function main() {
  const started = Date.now();
  const site = await startTestSite({ base: settings.portBase, log });
  buildMonolithIfNeeded();
  const monolithPort = settings.portBase + 10;
  const monolithServer = createStaticServer({ root: monolithDist, spa: true });
  await listen(monolithServer, monolithPort, 'monolith');
  const prerenderedPort = settings.portBase + 11;
  const prerenderedServer = await startPrerenderedMonolith(prerenderedPort);

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
  log('Server cost (time to first byte, requests/s)…');
  const server = await measureServer(variants.composed.origin, site);
  log(
    `  ${JSON.stringify(server.ttfb)}; one a second ${JSON.stringify(server.quietTtfb)}; ` +
      `first request ${JSON.stringify(server.firstTtfb)}; ` +
      `remotes asked ${server.fragmentRequestsPerSecond.toFixed(1)} times a second for fragments; ` +
      `${Math.round(server.rate.requestsPerSecond)} requests/s`,
  );
  log('Server cost of nginx with the generated configuration…');
  const nginxServer = await measureNginx();
  if (nginxServer) {
    log(
      `  ${JSON.stringify(nginxServer.ttfb)}; one a second ${JSON.stringify(nginxServer.quietTtfb)}; ` +
        `${Math.round(nginxServer.rate.requestsPerSecond)} requests/s`,
    );
  }

  const executablePath = locateTool('CHROME_PATH');
  const browser = await chromium.launch({ executablePath, args: CHROME_ARGS });
  const visits = Object.fromEntries(
    routes.map((route) => [route.path, { composed: [], monolith: [], prerendered: [] }]),
  );
  const paints = Object.fromEntries(
    routes.map((route) => [route.path, { composed: [], monolith: [], prerendered: [] }]),
  );
  const navigationTimes = navigations.map(() => ({ composed: [], monolith: [] }));
  let chromiumVersion;
  try {
    chromiumVersion = browser.version();
    const visit = (variant, route) =>
      measureVisit(browser, {
        url: `${variants[variant].origin}${route.path}`,
        heading: route.heading,
        distFor: variants[variant].distFor,
      });
    log('Warm-up run (not counted)…');
    for (const route of routes) for (const variant of Object.keys(variants)) await visit(variant, route);

    for (let run = 0; run < settings.runs; run += 1) {
      // Alternate which variant goes first, so neither always runs on a warmer (or busier) machine.
      const order = run % 2 ? ['prerendered', 'monolith', 'composed'] : ['composed', 'monolith', 'prerendered'];
      for (const route of routes) {
        for (const variant of order) visits[route.path][variant].push(await visit(variant, route));
      }
      for (const [index, navigation] of navigations.entries()) {
        for (const variant of order.filter((name) => name !== 'prerendered')) {
          const from = routes.find((route) => route.path === navigation.from);
          const to = routes.find((route) => route.path === navigation.to);
          navigationTimes[index][variant].push(
            await measureNavigation(browser, {
              url: `${variants[variant].origin}${navigation.from}`,
              linkName: navigation.linkName,
              startHeading: from.heading,
              heading: to.heading,
            }),
          );
        }
      }
      const home = visits['/'];
      log(
        `run ${run + 1}/${settings.runs}: / composed ${Math.round(home.composed.at(-1).jsBytes / 1000)} KB ` +
          `LCP ${Math.round(home.composed.at(-1).lcp)} ms, monolith ${Math.round(home.monolith.at(-1).jsBytes / 1000)} KB ` +
          `LCP ${Math.round(home.monolith.at(-1).lcp)} ms`,
      );
    }
    // Paint times from their own, lighter loads, many of them (see measurePaint), alternating the order of the builds.
    log(`Paint times (${settings.paintRuns} loads per route and build)…`);
    for (let run = 0; run < settings.paintRuns; run += 1) {
      const order = run % 2 ? ['prerendered', 'monolith', 'composed'] : ['composed', 'monolith', 'prerendered'];
      for (const route of routes) {
        for (const variant of order) {
          paints[route.path][variant].push(
            await measurePaint(browser, { url: `${variants[variant].origin}${route.path}` }),
          );
        }
      }
    }
  } finally {
    await browser.close();
  }

  const lighthouse = { composed: {}, monolith: {}, prerendered: {} };
  try {
    if (settings.lighthouseRuns > 0) {
      log('Lighthouse (mobile)…');
      const lighthouseOptions = { chromePath: executablePath, args: CHROME_ARGS, runs: settings.lighthouseRuns, log };
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
    }
  } finally {
    await close(monolithServer);
    await close(prerenderedServer);
    await site.stop();
  }

  const result = {
    date: new Date().toISOString(),
    environment: { node: process.version, chromium: `Chromium ${chromiumVersion}`, cpus: os.cpus().length },
    settings,
    server,
    nginxServer,
    routes: routes.map((route) => ({
      path: route.path,
      composed: summarizeVisits(visits[route.path].composed, paints[route.path].composed),
      monolith: summarizeVisits(visits[route.path].monolith, paints[route.path].monolith),
      prerendered: summarizeVisits(visits[route.path].prerendered, paints[route.path].prerendered),
      lighthouse:
        settings.lighthouseRuns > 0
          ? {
              composed: lighthouse.composed[route.path],
              monolith: lighthouse.monolith[route.path] ?? null,
              prerendered: lighthouse.prerendered[route.path] ?? null,
            }
          : null,
    })),
    navigations: navigations.map((navigation, index) => ({
      from: navigation.from,
      to: navigation.to,
      composed: { median: median(navigationTimes[index].composed), runs: navigationTimes[index].composed },
      monolith: { median: median(navigationTimes[index].monolith), runs: navigationTimes[index].monolith },
    })),
  };
  result.budgets = evaluateBudgets(result);

  console.log(renderText(result));
  fs.mkdirSync(settings.out, { recursive: true });
  const stamp = result.date.replace(/[:.]/g, '-');
  for (const name of [`bench-${stamp}`, 'latest']) {
    fs.writeFileSync(path.join(settings.out, `${name}.json`), `${JSON.stringify(result, null, 2)}\n`);
    fs.writeFileSync(path.join(settings.out, `${name}.md`), renderMarkdown(result));
  }
  log(
    `\nWritten to ${path.relative(process.cwd(), settings.out) || '.'}/latest.{json,md} in ${Math.round((Date.now() - started) / 1000)} s`,
  );
  const missed = result.budgets.filter((budget) => !budget.met);
  if (missed.length) {
    console.error(`\n${missed.length} budget(s) missed.`);
    process.exitCode = 1;
  }
}

module.exports = { startPrerenderedMonolith };

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
