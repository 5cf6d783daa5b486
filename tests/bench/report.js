// Medians, budgets and the tables `npm run bench` prints and writes (JSON + Markdown).

const KB = 1000;

/** The budgets of the composed site (first visit, empty cache). See docs/performance.md. */
const BUDGETS = {
  homeJsBytes: 160 * KB,
  jsRatio: 1.15,
  // Pages arrive rendered (server composition): the composed site must paint well before the client-rendered monolith,
  // and cost little against a monolith that is pre-rendered too.
  lcpRatio: 0.75,
  prerenderedLcpRatio: 1.1,
  lighthouseScore: 100,
  lighthouseLcpMs: 1200,
  cls: 0.05,
  navigationMs: 100,
  // Server cost of composing documents (loopback), for the built-in server and for nginx.
  ttfbMs: 15,
  requestsPerSecond: 2000,
};

function median(values) {
  const numbers = values.filter((value) => typeof value === 'number' && Number.isFinite(value)).sort((a, b) => a - b);
  if (numbers.length === 0) return null;
  const middle = Math.floor(numbers.length / 2);
  return numbers.length % 2 ? numbers[middle] : (numbers[middle - 1] + numbers[middle]) / 2;
}

/**
 * The median of each numeric field over runs; package counts take the worst run. Paint times (FCP, LCP, CLS) come
 * from the paint loads when there are any (measurePaint: many more, and without DevTools instrumentation).
 */
function summarizeVisits(runs, paints = []) {
  const fields = ['jsBytes', 'jsRequests', 'requests', 'criticalPath', 'fcp', 'lcp', 'cls', 'prefetchedJsBytes'];
  const paintFields = new Set(['fcp', 'lcp', 'cls']);
  const sourceOf = (field) => (paints.length && paintFields.has(field) ? paints : runs);
  const summary = Object.fromEntries(fields.map((field) => [field, median(sourceOf(field).map((run) => run[field]))]));
  const packages = {};
  for (const run of runs) {
    for (const [name, count] of Object.entries(run.packages)) packages[name] = Math.max(packages[name] ?? 0, count);
  }
  const typical = runs.find((run) => run.criticalPath === summary.criticalPath) ?? runs[0];
  return {
    ...summary,
    packages,
    gzipOnly: runs.every((run) => run.gzipOnly),
    criticalChain: typical?.criticalChain ?? [],
    lcpElement: typical?.lcpElement ?? null,
    runs,
    paints,
  };
}

function summarizeLighthouse(runs) {
  if (!runs?.length) return null;
  const fields = ['score', 'fcp', 'lcp', 'tbt', 'cls', 'si'];
  return { ...Object.fromEntries(fields.map((field) => [field, median(runs.map((run) => run[field]))])), runs };
}

const ratio = (a, b) => (typeof a === 'number' && typeof b === 'number' && b > 0 ? a / b : null);

/** A small seeded generator (mulberry32): the same runs give the same interval on every report. */
function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * How far the ratio of two medians could move with other loads of the same pages: a percentile bootstrap (`resamples`
 * times, with replacement). Paints on loopback vary by a frame or two from load to load, so a ratio of medians of 15
 * loads moves by several percent between runs of the same code; the interval says how much, next to the figure the
 * budget is judged on. `paired`: the series are loads made in the same rounds (the bench alternates the builds
 * within a round), so a round is resampled as a whole and what slowed the machine down during it counts for both;
 * otherwise each series is resampled on its own.
 * @returns {{ low: number, high: number } | null}
 */
function ratioInterval(numerators, denominators, { level = 0.9, resamples = 2000, seed = 1, paired = false } = {}) {
  const random = seededRandom(seed);
  const pick = (length) => Math.floor(random() * length);
  let draw;
  if (paired && numerators.length === denominators.length) {
    const rounds = numerators
      .map((value, index) => [value, denominators[index]])
      .filter(([a, b]) => Number.isFinite(a) && Number.isFinite(b));
    if (rounds.length < 2) return null;
    draw = () => {
      const sample = rounds.map(() => rounds[pick(rounds.length)]);
      return ratio(median(sample.map(([a]) => a)), median(sample.map(([, b]) => b)));
    };
  } else {
    const a = numerators.filter(Number.isFinite);
    const b = denominators.filter(Number.isFinite);
    if (a.length < 2 || b.length < 2) return null;
    const resample = (values) => values.map(() => values[pick(values.length)]);
    draw = () => ratio(median(resample(a)), median(resample(b)));
  }
  const ratios = [];
  for (let i = 0; i < resamples; i += 1) {
    const value = draw();
    if (value !== null) ratios.push(value);
  }
  ratios.sort((x, y) => x - y);
  const at = (quantile) => ratios[Math.min(ratios.length - 1, Math.floor(quantile * ratios.length))];
  return { low: at((1 - level) / 2), high: at((1 + level) / 2) };
}

/** The 90 % interval of a route's composed/pre-rendered LCP ratio, from its loopback loads. */
function prerenderedLcpInterval(route) {
  const loads = (summary) => (summary.paints?.length ? summary.paints : summary.runs);
  if (!route.prerendered?.runs) return null;
  // The paint loads are made in rounds, one load of each build per round: paired. The instrumented runs too.
  return ratioInterval(
    loads(route.composed).map((run) => run.lcp),
    loads(route.prerendered).map((run) => run.lcp),
    { paired: true },
  );
}

const fmtInterval = (interval) => (interval ? `${interval.low.toFixed(2)}-${interval.high.toFixed(2)}` : 'n/a');

/**
 * Time to first byte as a busy site sees it (back-to-back requests), as one with little traffic does (each page once
 * a second: a server that kept fetched fragments only for a moment would be fast in the first and not here), and on
 * a page's first request, when the server has nothing of it and waits for its remote (one request per route: the
 * first visit after start, or after 30 s without one).
 */
function ttfbSeries(server) {
  return [
    ['back to back', server.ttfb],
    ['one a second', server.quietTtfb ?? {}],
    ['first request', server.firstTtfb ?? {}],
  ];
}

/**
 * The series the 15 ms budget is about: medians. A first request is one sample that also pays for the server's own
 * start (its first documents, its first connection to each remote); it is printed, not judged.
 */
const JUDGED_TTFB = new Set(['back to back', 'one a second']);

/** The document servers measured: the built-in one, and nginx with the generated configuration when it ran. */
function serversOf(result) {
  return [
    ['built-in server', result.server],
    ['nginx', result.nginxServer],
  ].filter(([, server]) => server);
}

/** Every budget, with the measured value and whether it is met. */
function evaluateBudgets(result) {
  const checks = [];
  const check = (name, value, limit, met) => checks.push({ name, value, limit, met: Boolean(met) });
  const home = result.routes.find((route) => route.path === '/');
  check(
    'first load of / : gzip JavaScript',
    `${fmtKB(home.composed.jsBytes)}`,
    `<= ${fmtKB(BUDGETS.homeJsBytes)}`,
    home.composed.jsBytes <= BUDGETS.homeJsBytes,
  );
  for (const route of result.routes) {
    const { packages } = route.composed;
    for (const name of ['react', 'react-dom', 'federation-runtime']) {
      check(`${route.path}: ${name} loaded once`, `${packages[name] ?? 0}x`, '1x', packages[name] === 1);
    }
    const jsRatio = ratio(route.composed.jsBytes, route.monolith.jsBytes);
    const lcpRatio = ratio(route.composed.lcp, route.monolith.lcp);
    check(
      `${route.path}: JS composed/monolith`,
      fmtRatio(jsRatio),
      `<= ${BUDGETS.jsRatio}`,
      jsRatio <= BUDGETS.jsRatio,
    );
    check(
      `${route.path}: LCP composed/monolith`,
      fmtRatio(lcpRatio),
      `<= ${BUDGETS.lcpRatio}`,
      lcpRatio !== null && lcpRatio <= BUDGETS.lcpRatio,
    );
    if (route.prerendered) {
      const prerenderedRatio = ratio(route.composed.lcp, route.prerendered.lcp);
      check(
        `${route.path}: LCP composed/pre-rendered monolith`,
        `${fmtRatio(prerenderedRatio)} (90 % interval ${fmtInterval(prerenderedLcpInterval(route))})`,
        `<= ${BUDGETS.prerenderedLcpRatio}`,
        prerenderedRatio !== null && prerenderedRatio <= BUDGETS.prerenderedLcpRatio,
      );
    }
    if (route.lighthouse?.composed) {
      const lh = route.lighthouse.composed;
      check(
        `${route.path}: Lighthouse mobile performance`,
        String(lh.score),
        `>= ${BUDGETS.lighthouseScore}`,
        lh.score >= BUDGETS.lighthouseScore,
      );
      check(`${route.path}: CLS (Lighthouse)`, lh.cls.toFixed(3), `< ${BUDGETS.cls}`, lh.cls < BUDGETS.cls);
      check(
        `${route.path}: LCP (Lighthouse, simulated mobile)`,
        fmtMs(lh.lcp),
        `<= ${fmtMs(BUDGETS.lighthouseLcpMs)}`,
        lh.lcp <= BUDGETS.lighthouseLcpMs,
      );
    }
    check(
      `${route.path}: CLS (bench runs)`,
      route.composed.cls.toFixed(3),
      `< ${BUDGETS.cls}`,
      route.composed.cls < BUDGETS.cls,
    );
  }
  for (const [label, server] of serversOf(result)) {
    for (const [kind, times] of ttfbSeries(server).filter(([kind]) => JUDGED_TTFB.has(kind))) {
      for (const [route, ms] of Object.entries(times)) {
        check(
          `${route}: time to first byte, ${kind} (${label})`,
          `${ms.toFixed(1)} ms`,
          `<= ${BUDGETS.ttfbMs} ms`,
          ms <= BUDGETS.ttfbMs,
        );
      }
    }
    const { requestsPerSecond, connections } = server.rate;
    check(
      `page requests/s with ${connections} connections (${label})`,
      fmtNumber(requestsPerSecond),
      `>= ${BUDGETS.requestsPerSecond}`,
      requestsPerSecond >= BUDGETS.requestsPerSecond,
    );
  }
  for (const navigation of result.navigations) {
    check(
      `navigation ${navigation.from} -> ${navigation.to}: new page painted`,
      `${Math.round(navigation.composed.median)} ms`,
      `<= ${BUDGETS.navigationMs} ms`,
      navigation.composed.median <= BUDGETS.navigationMs,
    );
  }
  return checks;
}

function fmtKB(bytes) {
  return typeof bytes === 'number' ? `${(bytes / KB).toFixed(1)} KB` : 'n/a';
}
function fmtMs(ms) {
  return typeof ms === 'number' ? `${Math.round(ms)} ms` : 'n/a';
}
function fmtRatio(value) {
  return typeof value === 'number' ? value.toFixed(2) : 'n/a';
}
function fmtNumber(value, digits = 0) {
  return typeof value === 'number' ? value.toFixed(digits) : 'n/a';
}

/**
 * Rows of the per-route table: [metric, composed, monolith, composed/monolith, pre-rendered monolith,
 * composed/pre-rendered].
 */
function routeRows(route) {
  const variants = [route.composed, route.monolith, route.prerendered];
  const lighthouse = [route.lighthouse?.composed, route.lighthouse?.monolith, route.lighthouse?.prerendered];
  const row = (label, sources, pick, format, ratios = true) => {
    const [c, m, p] = sources.map((source) => (source ? pick(source) : undefined));
    const cell = (value, source) => (source ? format(value) : 'n/a');
    return [
      label,
      cell(c, sources[0]),
      cell(m, sources[1]),
      ratios ? fmtRatio(ratio(c, m)) : '',
      cell(p, sources[2]),
      ratios ? fmtRatio(ratio(c, p)) : '',
    ];
  };
  const rows = [
    row('JS transferred (gzip)', variants, (v) => v.jsBytes, fmtKB),
    row('JS files', variants, (v) => v.jsRequests, fmtNumber),
    row('requests', variants, (v) => v.requests, fmtNumber),
    row('critical path (requests)', variants, (v) => v.criticalPath, fmtNumber),
    row('FCP', variants, (v) => v.fcp, fmtMs),
    row('LCP', variants, (v) => v.lcp, fmtMs),
    ['LCP ratio, 90 % interval', '', '', '', '', fmtInterval(prerenderedLcpInterval(route))],
    row(
      'CLS',
      variants,
      (v) => v.cls,
      (value) => fmtNumber(value, 3),
      false,
    ),
  ];
  if (lighthouse[0]) {
    rows.push(
      row('Lighthouse mobile score', lighthouse, (v) => v.score, fmtNumber, false),
      row('Lighthouse LCP (simulated)', lighthouse, (v) => v.lcp, fmtMs),
      row('Lighthouse TBT (simulated)', lighthouse, (v) => v.tbt, fmtMs),
      row(
        'Lighthouse CLS',
        lighthouse,
        (v) => v.cls,
        (value) => fmtNumber(value, 3),
        false,
      ),
    );
  }
  if (route.composed.prefetchedJsBytes) {
    rows.push(['JS prefetched once idle (not in first load)', fmtKB(route.composed.prefetchedJsBytes), '', '', '', '']);
  }
  return rows;
}

function markdownTable(header, rows) {
  const lines = [`| ${header.join(' | ')} |`, `| ${header.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`];
  for (const row of rows) lines.push(`| ${row.join(' | ')} |`);
  return lines.join('\n');
}

function textTable(header, rows) {
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => String(row[i]).length)));
  const line = (row) =>
    row.map((cell, i) => (i === 0 ? String(cell).padEnd(widths[i]) : String(cell).padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

const HEADER = ['', 'composed', 'monolith', 'composed/monolith', 'pre-rendered monolith', 'composed/pre-rendered'];

function renderText(result) {
  const parts = [];
  for (const route of result.routes) parts.push(`\n${route.path}\n${textTable(HEADER, routeRows(route))}`);
  for (const navigation of result.navigations) {
    parts.push(
      `\nclient-side navigation ${navigation.from} -> ${navigation.to} (click to painted, median of ${navigation.composed.runs.length}): ` +
        `composed ${fmtMs(navigation.composed.median)}, monolith ${fmtMs(navigation.monolith.median)}`,
    );
  }
  for (const [label, server] of serversOf(result)) {
    parts.push(
      `\n${label}: time to first byte ${ttfbSeries(server)
        .map(
          ([kind, times]) =>
            `${kind}: ${Object.entries(times)
              .map(([route, ms]) => `${route} ${ms.toFixed(1)} ms`)
              .join(', ')}`,
        )
        .join('; ')}; ${fmtNumber(server.rate.requestsPerSecond)} page requests/s with ` +
        `${server.rate.connections} connections (${server.rate.failed} failed)` +
        (server.fragmentRequestsPerSecond === undefined
          ? ''
          : `; the remotes got ${server.fragmentRequestsPerSecond.toFixed(1)} requests/s for fragments ` +
            'while each page was asked for once a second'),
    );
  }
  parts.push(
    `\nBudgets:\n${result.budgets
      .map((b) => `  ${b.met ? 'ok    ' : 'MISSED'} ${b.name}: ${b.value} (budget ${b.limit})`)
      .join('\n')}`,
  );
  return parts.join('\n');
}

function renderMarkdown(result) {
  const parts = [
    `# Benchmark: composed site vs monolith (client-rendered and pre-rendered)`,
    '',
    `${result.date} · ${result.environment.chromium} · Node ${result.environment.node} · ` +
      `${result.environment.cpus} CPUs · ${result.settings.runs} runs per route (median, after a warm-up), ` +
      `paint times from ${result.settings.paintRuns ?? result.settings.runs} loads per route · ` +
      `Lighthouse ${result.settings.lighthouseRuns} runs per route (median)`,
  ];
  for (const route of result.routes) {
    parts.push('', `## ${route.path}`, '', markdownTable(HEADER, routeRows(route)));
    parts.push('', `Critical path (composed): ${route.composed.criticalChain.join(' → ')}`);
  }
  parts.push('', '## Client-side navigation', '');
  parts.push(
    markdownTable(
      ['', 'composed', 'monolith'],
      result.navigations.map((n) => [`${n.from} → ${n.to}`, fmtMs(n.composed.median), fmtMs(n.monolith.median)]),
    ),
  );
  for (const [label, server] of serversOf(result)) {
    parts.push('', `## Server cost (${label}, loopback)`, '');
    parts.push(
      markdownTable(
        ['', 'value'],
        [
          ...ttfbSeries(server).flatMap(([kind, times]) =>
            Object.entries(times).map(([route, ms]) => [
              `${route}: time to first byte, ${kind}${JUDGED_TTFB.has(kind) ? ' (median)' : ''}`,
              `${ms.toFixed(1)} ms`,
            ]),
          ),
          [`page requests/s, ${server.rate.connections} connections`, fmtNumber(server.rate.requestsPerSecond)],
        ],
      ),
    );
  }
  parts.push('', '## Budgets', '');
  parts.push(
    markdownTable(
      ['budget', 'measured', 'limit', ''],
      result.budgets.map((b) => [b.name, b.value, b.limit, b.met ? 'met' : '**missed**']),
    ),
  );
  return `${parts.join('\n')}\n`;
}

module.exports = {
  BUDGETS,
  median,
  summarizeVisits,
  summarizeLighthouse,
  evaluateBudgets,
  ratioInterval,
  renderText,
  renderMarkdown,
};
