// The bench's report in Markdown, as `npm run bench` writes it into bench-results/.
const { fmtMs, fmtNumber } = require('./format');
const { ttfbSeries, JUDGED_TTFB, serversOf } = require('./serverCost');
const { HEADER, LOAD_HEADER, routeRows, loadRows, reactFloorLine } = require('./rows');

/** @typedef {import('./benchReport').BenchReport} BenchReport */

/**
 * @param {string[]} header
 * @param {string[][]} rows
 */
function markdownTable(header, rows) {
  const lines = [`| ${header.join(' | ')} |`, `| ${header.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`];
  for (const row of rows) lines.push(`| ${row.join(' | ')} |`);
  return lines.join('\n');
}

/** @param {BenchReport} result */
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
  if (result.reactFloor) parts.push('', '## React floor', '', reactFloorLine(result.reactFloor));
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
  if (result.load) {
    parts.push('', `## Under load (${result.load.connections} connections, ${result.load.seconds} s each)`, '');
    parts.push(markdownTable(LOAD_HEADER, loadRows(result.load)));
  }
  parts.push('', '## Budgets', '');
  parts.push(
    markdownTable(
      ['budget', 'measured', 'limit', ''],
      result.budgets.map((b) => [
        b.name,
        b.value,
        b.limit,
        b.met === null ? 'not judged' : b.met ? 'met' : '**missed**',
      ]),
    ),
  );
  return `${parts.join('\n')}\n`;
}

module.exports = { renderMarkdown };
