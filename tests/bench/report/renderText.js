// The bench's report as `npm run bench` prints it: a text table per route, then the servers, the load and the budgets.
const { fmtMs, fmtNumber } = require('./format');
const { ttfbSeries, serversOf } = require('./serverCost');
const { HEADER, LOAD_HEADER, routeRows, loadRows, reactFloorLine } = require('./rows');

/** @typedef {import('./benchReport').BenchReport} BenchReport */

/**
 * @param {string[]} header
 * @param {string[][]} rows  as long as the header
 */
function textTable(header, rows) {
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => String(row[i]).length)));
  const line = (/** @type {string[]} */ row) =>
    row
      .map((cell, i) => {
        const width = /** @type {number} */ (widths[i]);
        return i === 0 ? String(cell).padEnd(width) : String(cell).padStart(width);
      })
      .join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** @param {BenchReport} result */
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
  if (result.reactFloor) parts.push(`\n${reactFloorLine(result.reactFloor)}`);
  if (result.load) {
    parts.push(
      `\nUnder load, ${result.load.connections} connections, ${result.load.static.length} rounds of ` +
        `${result.load.seconds} s each (medians):\n` +
        textTable(LOAD_HEADER, loadRows(result.load)),
    );
  }
  parts.push(
    `\nBudgets:\n${result.budgets
      .map(
        (b) =>
          `  ${(b.met === null ? 'NOT JUDGED' : b.met ? 'ok' : 'MISSED').padEnd(10)} ${b.name}: ${b.value} (budget ${b.limit})`,
      )
      .join('\n')}`,
  );
  return parts.join('\n');
}

module.exports = { renderText, textTable };
