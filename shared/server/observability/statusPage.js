// The status page, GET /status on the metrics listener (never on the site's public origin: like the metrics, it is
// for operators): for each remote, its live and previous release with the last hour's p75 LCP, INP and CLS and errors
// per 1,000 views, and the same in 5-minute buckets as charts; and the files visitors' browsers refused for their
// integrity, as this node counted them since it started. One HTML document with everything in it, no script and
// nothing to load, under a policy that allows only its own <style> (by hash) and data: images.
const { createHash } = require('node:crypto');
const { escapeHtml } = require('@nativegtm/contract/fragments');
const { VITALS } = require('@nativegtm/contract/fieldData');
const { RATING_TEXT, errorRateText, vitalText } = require('../fieldData/vitalText');
const { lineChart } = require('./svgChart');
const { createStatusFigures, CACHE_MS, WINDOW_MS } = require('./statusFigures');
const { openFieldRecords } = require('../fieldData/fieldRecords');

/** @typedef {import('./statusFigures').StatusFigures} StatusFigures */
/** @typedef {import('./statusFigures').RemoteFigures} RemoteFigures */
/** @typedef {import('./statusFigures').ReleaseFigures} ReleaseFigures */
/** @typedef {import('../fieldData/summary').GroupSummary} GroupSummary */
/** @typedef {import('./integrityFailures').IntegrityFailures} IntegrityFailures */

const STATUS_PATH = '/status';
/** Release ids are 16 hex digits; 8 tell them apart on a page of a few. */
const SHORT_ID = 8;
/** The page reloads itself this often (no script: a refresh header in the document). */
const REFRESH_SECONDS = 60;
const CHARTED = /** @type {const} */ (['LCP', 'INP', 'CLS']);
const LINE_COLORS = { live: '#1a56db', previous: '#5f6368' };

const STYLE = `
:root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #202124;
  background: #f1f3f4; }
body { margin: 0; padding: 24px 32px 32px; }
header, main, footer { max-width: 1216px; margin: 0 auto; }
h1 { font-size: 24px; margin: 0 0 4px; }
.lede { margin: 0 0 12px; color: #5f6368; font-size: 14px; }
.summary { display: flex; flex-wrap: wrap; gap: 8px 24px; align-items: center; margin: 0 0 16px; font-size: 14px; }
.summary strong { font-size: 16px; }
.legend { display: flex; gap: 12px; align-items: center; margin: 0; padding: 0; list-style: none; }
.legend li { display: flex; gap: 6px; align-items: center; }
main { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 16px; align-items: start; }
.card { background: #fff; border: 1px solid #dadce0; border-radius: 8px; padding: 16px 20px 12px; }
.card h2 { font-size: 18px; margin: 0; display: flex; align-items: baseline; gap: 8px; }
.route { font-size: 13px; font-weight: 400; color: #5f6368; font-family: ui-monospace, Menlo, monospace; }
.source { margin: 4px 0 12px; font-size: 13px; color: #5f6368; }
code { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 13px; color: #202124; }
table { width: 100%; border-collapse: collapse; font-size: 13px; table-layout: fixed; }
thead td { width: 28%; }
thead th { text-align: left; font-weight: 400; padding: 0 8px 6px 0; border-bottom: 1px solid #dadce0; }
tbody th { text-align: left; font-weight: 600; color: #3c4043; font-size: 12px; padding: 6px 8px 6px 0;
  border-bottom: 1px solid #f1f3f4; }
td { padding: 6px 8px 6px 0; border-bottom: 1px solid #f1f3f4; white-space: nowrap; }
td.empty { white-space: normal; vertical-align: middle; border-bottom: 0; }
.role { font-size: 11px; text-transform: uppercase; letter-spacing: .04em; color: #5f6368; font-weight: 600; }
.role.live { color: #1a56db; }
.value { font-weight: 600; font-size: 14px; font-variant-numeric: tabular-nums; }
.count { margin-left: 6px; font-size: 11px; color: #80868b; }
.rating { display: inline-block; padding: 0 6px; border-radius: 9px; font-size: 11px; line-height: 16px;
  border: 1px solid; white-space: nowrap; }
.good { color: #0d652d; background: #e6f4ea; border-color: #81c995; }
.needs-improvement { color: #8a4b00; background: #fef3dc; border-color: #f6bf5b; }
.poor { color: #a50e0e; background: #fce8e6; border-color: #f28b82; }
.none { color: #80868b; }
.empty { color: #5f6368; font-style: italic; font-size: 14px; }
p.empty { margin: 4px 0 0; }
.charts { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 8px 16px; margin-top: 12px; }
figure { margin: 0; }
figcaption { font-size: 12px; font-weight: 600; color: #3c4043; margin-bottom: 2px; }
svg { display: block; width: 100%; height: auto; }
svg.swatch { display: inline-block; width: 24px; height: 10px; }
.note { margin: 8px 0 0; font-size: 12px; color: #5f6368; }
.problem { margin: 8px 0; padding: 8px 12px; background: #fce8e6; color: #a50e0e; border-radius: 6px; font-size: 13px; }
footer { margin-top: 16px; font-size: 12px; color: #5f6368; }
@media (max-width: 720px) {
  body { padding: 16px; }
  main, .charts { grid-template-columns: minmax(0, 1fr); }
  .card h2 { flex-wrap: wrap; }
}
`;

/** The page's one stylesheet, allowed by its hash: no inline style otherwise, no 'unsafe-inline'. */
const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/** The page's headers (the metrics server adds Cache-Control: no-store to everything it sends). */
const STATUS_PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': [
    "default-src 'none'",
    `style-src 'sha256-${STYLE_HASH}'`,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; '),
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/** @param {number} time */
const clock = (time) => new Date(time).toISOString().slice(11, 19);
/** @param {number} time */
const minute = (time) => clock(time).slice(0, 5);
/** @param {number} count */
const thousands = (count) => count.toLocaleString('en-US');
/** @param {string} id */
const shortId = (id) => id.slice(0, SHORT_ID);

/**
 * A release id, short, with the whole id on hover.
 * @param {string} id
 */
const releaseId = (id) => `<code title="${escapeHtml(id)}">${escapeHtml(shortId(id))}</code>`;

/**
 * A line as the charts draw it, for the legend.
 * @param {'live' | 'previous'} role
 */
const swatch = (role) =>
  `<svg class="swatch" viewBox="0 0 24 10" aria-hidden="true"><line x1="0" x2="24" y1="5" y2="5" stroke="${LINE_COLORS[role]}" stroke-width="2"${role === 'previous' ? ' stroke-dasharray="5 3"' : ''}/></svg>`;

/**
 * A p75 and its rating, in words as well as colour.
 * @param {GroupSummary} group
 * @param {(typeof CHARTED)[number]} name
 */
function vitalCell(group, name) {
  const vital = group.vitals[name];
  if (!vital) return '<td><span class="none">no values</span></td>';
  return (
    `<td title="p75 of ${thousands(vital.count)} values"><span class="value">${escapeHtml(vitalText(name, vital.p75))}</span> ` +
    `<span class="rating ${vital.rating}">${RATING_TEXT[vital.rating]}</span></td>`
  );
}

/**
 * The releases side by side, a row per figure: what changed from the previous release to the live one reads across.
 * @param {ReleaseFigures[]} releases
 */
function releaseTable(releases) {
  const head = releases
    .map(
      (release) =>
        `<th scope="col"><span class="role ${release.role}">${release.role}</span> ${releaseId(release.id)}</th>`,
    )
    .join('');
  /** @param {(group: GroupSummary) => string} cell */
  const cells = (cell, first = false) =>
    releases
      .map(({ hour }) => {
        if (hour && hour.views > 0) return cell(hour);
        if (!first) return '';
        const errors = hour?.errors ? `; ${hour.errors} errors with no view to count them against` : '';
        return `<td rowspan="5" class="empty">no views in the last hour${errors}</td>`;
      })
      .join('');
  const rows = [
    `<tr><th scope="row">Views</th>${cells((group) => `<td><span class="value">${thousands(group.views)}</span></td>`, true)}</tr>`,
    ...CHARTED.map((name) => `<tr><th scope="row">${name} p75</th>${cells((group) => vitalCell(group, name))}</tr>`),
    `<tr><th scope="row">Errors per 1,000 views</th>${cells(
      (group) =>
        `<td><span class="value">${errorRateText(group.errorsPerThousandViews)}</span> ` +
        `<span class="count">${thousands(group.errors)} error${group.errors === 1 ? '' : 's'}</span></td>`,
    )}</tr>`,
  ];
  return `<table><thead><tr><td></td>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/**
 * @param {RemoteFigures} remote
 * @param {StatusFigures} figures
 */
function charts(remote, figures) {
  /** @type {[string, string, string]} */
  const xLabels = [minute(figures.since), minute(figures.since + WINDOW_MS / 2), minute(figures.at)];
  /** @param {(bucket: GroupSummary | undefined) => number | undefined} pick */
  const series = (pick) =>
    remote.releases.map((release) => ({
      name: `${release.role} ${shortId(release.id)}`,
      values: release.buckets.map(pick),
      color: LINE_COLORS[release.role],
      dashed: release.role === 'previous',
    }));
  const figuresOf = CHARTED.map((name) => {
    const label = `${name} p75 per 5 minutes, ${remote.remote}`;
    const chart = lineChart({
      label,
      series: series((bucket) => bucket?.vitals[name]?.p75),
      format: (value) => vitalText(name, value),
      thresholds: VITALS[name],
      xLabels,
      empty: `no ${name} values in the last hour`,
    });
    return `<figure><figcaption>${name} p75</figcaption>${chart}</figure>`;
  });
  const errors = lineChart({
    label: `Errors per 1,000 views per 5 minutes, ${remote.remote}`,
    series: series((bucket) => (bucket?.views ? bucket.errorsPerThousandViews : undefined)),
    format: (value) => (value >= 10 ? String(Math.round(value)) : value.toFixed(1)),
    xLabels,
    empty: 'no views in the last hour',
  });
  figuresOf.push(`<figure><figcaption>Errors per 1,000 views</figcaption>${errors}</figure>`);
  return `<div class="charts">${figuresOf.join('')}</div>`;
}

/**
 * "the live release", "the live or the previous release", "the live build".
 * @param {RemoteFigures} remote
 */
const releaseNames = (remote) =>
  `the ${remote.releases.map((release) => release.role).join(' or the ')} ${remote.source === 'dist' ? 'build' : 'release'}`;

/**
 * The files of a remote refused for their integrity on this node: none is said too, so that an operator knows it is
 * watched.
 * @param {Map<string, number> | undefined} releases how many, by release
 */
function integrityLine(releases) {
  const total = [...(releases?.values() ?? [])].reduce((sum, count) => sum + count, 0);
  const since = 'on this node since its server started';
  if (total === 0) return `<p class="note">No file refused for its integrity ${since}.</p>`;
  const byRelease = [...(releases ?? [])]
    .sort(([, a], [, b]) => b - a)
    .map(
      ([release, count]) =>
        `${/^[0-9a-f]{16}$/.test(release) ? releaseId(release) : escapeHtml(release)}: ${thousands(count)}`,
    )
    .join(', ');
  const files = total === 1 ? 'file' : 'files';
  return (
    `<p class="problem">${thousands(total)} ${files} refused for the integrity the build listed, ${since} ` +
    `(${byRelease}): visitors got the error screen. The log names each file.</p>`
  );
}

/**
 * @param {RemoteFigures} remote
 * @param {StatusFigures} figures
 * @param {IntegrityFailures | undefined} failures this node's, when it counts them
 */
function card(remote, figures, failures) {
  const id = `remote-${escapeHtml(remote.remote)}`;
  const live = remote.releases.find((release) => release.role === 'live');
  const previous = remote.releases.find((release) => release.role === 'previous');
  let source;
  if (remote.source === 'dist') {
    source = live
      ? `${swatch('live')} live: the build in dist/, ${releaseId(live.id)} (no release live in the store)`
      : 'No release live in the store, and no build in dist/.';
  } else {
    source =
      `${live ? `${swatch('live')} live ${releaseId(live.id)}` : 'no live release'} · ` +
      `${previous ? `${swatch('previous')} previous ${releaseId(previous.id)}` : 'no previous release'}`;
  }
  const parts = [
    `<section class="card" aria-labelledby="${id}">`,
    `<h2 id="${id}">${escapeHtml(remote.remote)} <span class="route">${escapeHtml(remote.route)}</span></h2>`,
    `<p class="source">${source}</p>`,
  ];
  if (remote.problem) {
    parts.push(`<p class="problem">${escapeHtml(remote.problem)}; its server keeps its last good release.</p>`);
  }
  // Files refused: up here, beside the store's problems; none: a note at the end.
  const integrity = failures && integrityLine(failures.get(remote.remote));
  if (integrity?.startsWith('<p class="problem">')) parts.push(integrity);
  const viewed = remote.releases.some((release) => (release.hour?.views ?? 0) > 0);
  if (viewed) parts.push(releaseTable(remote.releases), charts(remote, figures));
  else if (remote.releases.length > 0)
    parts.push(`<p class="empty">No views of ${releaseNames(remote)} in the last hour.</p>`);
  if (remote.otherViews > 0) {
    parts.push(
      `<p class="note">And ${thousands(remote.otherViews)} views of other releases (older tabs, previews).</p>`,
    );
  }
  if (integrity && !integrity.startsWith('<p class="problem">')) parts.push(integrity);
  parts.push('</section>');
  return parts.join('');
}

/**
 * The page for `figures`.
 * @param {StatusFigures} figures
 * @param {{ where: string }} records where the records are (a folder, or the database)
 * @param {IntegrityFailures} [failures] the files refused for their integrity on this node
 */
function renderStatusPage(figures, { where }, failures) {
  const shell = figures.shell;
  const shellText =
    shell && shell.errorsPerThousandViews !== undefined
      ? `${errorRateText(shell.errorsPerThousandViews)} per 1,000 views (${shell.errors})`
      : shell
        ? `${shell.errors} with no view to count them against`
        : 'none';
  const legend = /** @type {const} */ (['good', 'needs-improvement', 'poor'])
    .map((rating) => `<li><span class="rating ${rating}">${RATING_TEXT[rating]}</span></li>`)
    .join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${REFRESH_SECONDS}">
<title>Field data status · NativeGTM</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>NativeGTM field data: the last hour</h1>
<p class="lede">What visitors' browsers measured: p75 of LCP, INP and CLS and errors per 1,000 views for each remote's live and previous release, exact over every record, charted per 5 minutes. ${minute(figures.since)}–${minute(figures.at)} UTC, as of ${clock(figures.at)} UTC.</p>
<div class="summary">
<span><strong>${thousands(figures.views)}</strong> views${figures.views === 0 ? ': no views in the last hour' : ''}</span>
<span>Shell errors: <strong>${shellText}</strong></span>
<ul class="legend" aria-label="Ratings, by web.dev's thresholds">${legend}</ul>
</div>
</header>
<main>
${figures.remotes.map((remote) => card(remote, figures, failures)).join('\n')}
</main>
<footer>Records from <code>${escapeHtml(where)}</code>, every one of the hour (signed or not, as the metrics count them). Computed at most every ${CACHE_MS / 1000} s; this page reloads every ${REFRESH_SECONDS} s. Prometheus metrics: <code>/metrics</code>.</footer>
</body>
</html>
`;
}

/**
 * The status page of a record store and a release store: `html()` is the page as of now (figures at most CACHE_MS
 * old).
 * @param {Omit<Parameters<typeof createStatusFigures>[0], 'fieldRecords'> & { fieldDataDir: string,
 *   databaseUrl?: string, integrityFailures?: () => Promise<IntegrityFailures> }} options fieldDataDir:
 *   FIELD_DATA_DIR; databaseUrl: with it, every node's records in the database instead; integrityFailures: this node's
 *   counts of files refused for their integrity (integrityFailures.js), read at each view
 */
function createStatusPage({ fieldDataDir, databaseUrl, integrityFailures, ...options }) {
  const fieldRecords = openFieldRecords({ dir: fieldDataDir, databaseUrl });
  const figures = createStatusFigures({ ...options, fieldRecords });
  return {
    async html() {
      // Counts that cannot be read leave their lines out; the field data still shows.
      const failures = await integrityFailures?.().catch(() => undefined);
      return renderStatusPage(await figures.get(), fieldRecords, failures);
    },
    /** Lets go of the database, if any. */
    close: () => fieldRecords.close(),
  };
}

/** @typedef {ReturnType<typeof createStatusPage>} StatusPage */

module.exports = { createStatusPage, STATUS_PATH, STATUS_PAGE_HEADERS };
