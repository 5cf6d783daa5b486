// docs/grafana/field-data.json queries the metrics the servers export, by name: a renamed metric or a typo in a query
// would leave a panel empty without an error anywhere. Every query of the dashboard is parsed with Prometheus' own
// PromQL grammar and each metric it names must be in what createMetrics() serves.
const fs = require('node:fs');
const path = require('node:path');
const { parser } = require('@prometheus-io/lezer-promql');
const { repoRoot } = require('../deployables');
const { createMetrics } = require('./metrics');

const DASHBOARD = path.join(repoRoot, 'docs/grafana/field-data.json');

/** Grafana's own variables, as a query reaches Prometheus once Grafana has put in their values. */
const GRAFANA_VARIABLES = { $__rate_interval: '5m', $__interval: '1m', $__range: '1h' };

/**
 * The metric names an expression selects. Throws on an expression that does not parse.
 * @param {string} expr a panel's PromQL, with Grafana's variables
 */
function metricNames(expr) {
  let promql = expr;
  for (const [variable, value] of Object.entries(GRAFANA_VARIABLES)) promql = promql.replaceAll(variable, value);
  /** @type {string[]} */
  const names = [];
  /** @type {string[]} */
  const errors = [];
  parser.parse(promql).iterate({
    enter(node) {
      if (node.type.isError) errors.push(`at ${node.from}: "${promql.slice(node.from, node.from + 20)}"`);
      if (node.name === 'Identifier' && node.node.parent?.name === 'VectorSelector') {
        names.push(promql.slice(node.from, node.to));
      }
    },
  });
  if (errors.length > 0) throw new Error(`not PromQL: ${expr} (${errors.join(', ')})`);
  return names;
}

/**
 * The metric a `label_values(<selector>, <label>)` variable reads, as PromQL (its selector).
 * @param {string} query
 */
function variableSelector(query) {
  const match = /^label_values\((.*),\s*[A-Za-z_]\w*\)$/.exec(query.trim());
  if (!match?.[1]) throw new Error(`not a label_values query: ${query}`);
  return match[1];
}

/**
 * Every expression of the dashboard: its panels' (rows' panels too) and its variables'.
 * @param {any} dashboard
 */
function expressions(dashboard) {
  /** @type {{ where: string, expr: string }[]} */
  const found = [];
  /** @param {any[]} panels */
  const visit = (panels) => {
    for (const panel of panels ?? []) {
      for (const target of panel.targets ?? []) found.push({ where: panel.title, expr: target.expr });
      visit(panel.panels);
    }
  };
  visit(dashboard.panels);
  for (const variable of dashboard.templating?.list ?? []) {
    if (variable.type !== 'query') continue;
    found.push({ where: `variable ${variable.name}`, expr: variableSelector(variable.query.query ?? variable.query) });
  }
  return found;
}

/** The text every field-data metric of one process shows, with one sample of each. */
async function exportedText() {
  const metrics = createMetrics();
  const labels = { route: '/', remote: 'candidates', release: '0123456789abcdef', device: 'desktop' };
  metrics.webVital(labels, 'LCP', 1200);
  metrics.webVital(labels, 'CLS', 0.05);
  metrics.pageView({ ...labels, nav: 'document' });
  metrics.browserError({ remote: 'candidates', release: labels.release, source: 'error' });
  metrics.beacon('accepted');
  return metrics.registry.metrics();
}

/** Suffixes of a histogram's (and a summary's) series. */
const SUFFIXES = /^(.*)_(bucket|sum|count)$/;

/**
 * Why `name` is not a series of the exposition `text`, or undefined when it is one.
 * @param {string} name
 * @param {string} text
 */
function whyMissing(name, text) {
  const types = new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map(([, metric, type]) => [metric, type]));
  const samples = new Set([...text.matchAll(/^([A-Za-z_:][\w:]*)[{ ]/gm)].map(([, sample]) => sample));
  const [, base, suffix] = SUFFIXES.exec(name) ?? [];
  const type = types.get(name) ?? (base !== undefined ? types.get(base) : undefined);
  if (type === undefined) return `${name} is not a metric the servers export`;
  if (!types.has(name) && base !== undefined && type !== 'histogram' && type !== 'summary') {
    return `${name}: ${base} is a ${type}, which has no _${suffix} series`;
  }
  if (type === 'histogram' && types.has(name)) return `${name} is a histogram: query its _bucket, _sum or _count`;
  if (!samples.has(name)) return `${name} has no samples in the exposition`;
  return undefined;
}

describe('the field-data dashboard', () => {
  const dashboard = JSON.parse(fs.readFileSync(DASHBOARD, 'utf8'));

  it('queries only metrics the servers export, in expressions that parse', async () => {
    const text = await exportedText();
    const found = expressions(dashboard);
    expect(found.length).toBeGreaterThan(10);
    const problems = found.flatMap(({ where, expr }) =>
      metricNames(expr).flatMap((name) => {
        const problem = whyMissing(name, text);
        return problem ? [`${where}: ${problem}`] : [];
      }),
    );
    expect(problems).toEqual([]);
  });

  it('covers every field-data metric', () => {
    const named = new Set(expressions(dashboard).flatMap(({ expr }) => metricNames(expr)));
    for (const metric of [
      'nativegtm_web_vital_seconds_bucket',
      'nativegtm_web_vital_cls_bucket',
      'nativegtm_page_views_total',
      'nativegtm_browser_errors_total',
      'nativegtm_field_data_beacons_total',
    ]) {
      expect(named).toContain(metric);
    }
  });

  it('has a variable for the remote, the route and the release, used by the vitals panels', () => {
    const names = dashboard.templating.list.map((/** @type {{ name: string }} */ variable) => variable.name);
    expect(names).toEqual(expect.arrayContaining(['remote', 'route', 'release']));
    const vitals = expressions(dashboard).filter(({ expr }) => expr.includes('histogram_quantile(0.75'));
    expect(vitals).toHaveLength(5);
    for (const { expr } of vitals) expect(expr).toMatch(/remote=~"\$remote".*route=~"\$route".*release=~"\$release"/);
  });
});

describe('the check itself', () => {
  it('finds the metrics of an expression, not its functions, labels, grouping or variables', () => {
    const expr =
      '1000 * sum by (le, remote) (rate(a_total{remote=~"$remote", le="0.5"}[$__rate_interval])) / ' +
      'histogram_quantile(0.75, sum by (le) (rate(b_bucket[5m]))) offset 1h';
    expect(metricNames(expr)).toEqual(['a_total', 'b_bucket']);
  });

  it('fails on a metric the servers do not export, or a suffix its type has not', async () => {
    const text = await exportedText();
    expect(whyMissing('nativegtm_web_vital_seconds_bucket', text)).toBeUndefined();
    expect(whyMissing('nativegtm_web_vital_cls_count', text)).toBeUndefined();
    expect(whyMissing('nativegtm_page_views_total', text)).toBeUndefined();
    expect(whyMissing(metricNames('rate(nativegtm_web_vitals_seconds_bucket[5m])')[0] ?? '', text)).toMatch(
      /not a metric the servers export/,
    );
    expect(whyMissing('nativegtm_page_views_total_count', text)).toMatch(/is a counter, which has no _count series/);
    expect(whyMissing('nativegtm_field_data_beacons_bucket', text)).toMatch(/not a metric/);
    expect(whyMissing('nativegtm_web_vital_seconds', text)).toMatch(/is a histogram/);
  });

  it('refuses an expression that is not PromQL', () => {
    expect(() => metricNames('sum(rate(nativegtm_page_views_total[5m])')).toThrow(/not PromQL/);
  });
});
