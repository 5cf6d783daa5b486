// `npm run vitals -- [<remote>] [--since 1h] [--signed] [--dir <folder>]`: what visitors' browsers measured, from the
// field-data record store (FIELD_DATA_DIR, or every node's records in the database with DATABASE_URL): per route and release, page views, p75 of each Web Vital with its rating,
// errors per 1,000 views, and the elements most often behind a poor LCP, INP or CLS. Exact figures over the records
// (@nativegtm/server/fieldData/summary), where the metrics port's histograms are estimates.
const { remoteNames, isRemoteName } = require('@nativegtm/contract/remotes');
const { VITAL_NAMES } = require('@nativegtm/contract/fieldData');
const { readCommandLine, runCommand, UsageError } = require('@nativegtm/server/commandLine');
const { configOrExit } = require('@nativegtm/server/config');
const { fieldDataDir } = require('@nativegtm/server/fieldData/recordStore');
const { openFieldRecords } = require('@nativegtm/server/fieldData/fieldRecords');
const { signedOncePerDocument } = require('@nativegtm/server/fieldData/signedRecords');
const { summarize, ofRemote } = require('@nativegtm/server/fieldData/summary');
const { RATING_SHORT, errorRateText, vitalText } = require('@nativegtm/server/fieldData/vitalText');
const { toolsConfig } = require('../config');
const { parseDuration } = require('../duration');

/** @typedef {import('@nativegtm/server/fieldData/summary').GroupSummary} GroupSummary */

const USAGE = 'npm run vitals -- [<remote>] [--since <30m|1h|24h|7d>] [--signed] [--dir <folder>]';
const DESCRIPTION = `Per route and release: page views, p75 of each Web Vital (good, NI: needs improvement, poor),
errors per 1,000 views, and the elements most often behind a poor LCP, INP or CLS, from the field-data records of
the window (the last hour unless --since says). The remotes: ${remoteNames.join(', ')}.
  --signed        only signed records, once per document (what the canary decides on)
  --dir <folder>  the record store (FIELD_DATA_DIR, field-data/ at the root by default; with DATABASE_URL, the
                  database's records of every node unless --dir is given)`;

/**
 * Rows as lines of columns padded to their widest cell, to the left but for the columns of numbers.
 * @param {string[][]} rows
 * @param {number[]} numbers the columns aligned to the right
 */
function table(rows, numbers) {
  const widths = (rows[0] ?? []).map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  return rows.map((row) =>
    row
      .map((cell, column) =>
        numbers.includes(column) ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0),
      )
      .join('  ')
      .trimEnd(),
  );
}

/**
 * "1.2 s good", "240 ms NI", "0.31 poor", or "-" without values.
 * @param {GroupSummary} group
 * @param {import('@nativegtm/contract/fieldData').VitalName} name
 */
function vitalCell(group, name) {
  const vital = group.vitals[name];
  return vital ? `${vitalText(name, vital.p75)} ${RATING_SHORT[vital.rating]}` : '-';
}

/** @param {number} time */
const utc = (time) => `${new Date(time).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** @param {number} count */
const thousands = (count) => count.toLocaleString('en-US');

runCommand(USAGE, async () => {
  const { values, positionals } = readCommandLine(process.argv.slice(2), {
    usage: USAGE,
    description: DESCRIPTION,
    max: 1,
    options: { since: { type: 'string' }, signed: { type: 'boolean' }, dir: { type: 'string' } },
  });
  const [remote] = positionals;
  if (remote !== undefined && !isRemoteName(remote)) {
    throw new UsageError(`unknown remote "${remote}" (the remotes are ${remoteNames.join(', ')})`);
  }
  const sinceText = values.since ?? '1h';
  const windowMs = parseDuration(sinceText);
  if (windowMs === undefined) {
    throw new UsageError(`--since must be a duration such as 30m, 1h, 24h or 7d, not "${sinceText}"`);
  }
  const config = values.dir === undefined ? configOrExit(toolsConfig) : undefined;
  const source = openFieldRecords({
    dir: fieldDataDir(values.dir ?? config?.FIELD_DATA_DIR),
    databaseUrl: config?.DATABASE_URL,
  });
  const dir = source.where;
  const until = Date.now();
  const since = until - windowMs;

  const signed = values.signed ? signedOncePerDocument() : () => true;
  const mine = remote === undefined ? () => true : ofRemote(remote);
  const summary = await summarize(
    source.read({ since, until }),
    { by: ['route', 'remote', 'release'] },
    { filter: (record) => mine(record) && signed(record) },
  ).finally(() => source.close());

  const what = `${values.signed ? 'signed ' : ''}field data${remote ? ` for ${remote}` : ''}`;
  const window = `since ${utc(since)} (the last ${sinceText})`;
  if (summary.records === 0) {
    console.log(`No ${what} ${window} in ${dir}.`);
    return;
  }
  console.log(
    `${what[0]?.toUpperCase()}${what.slice(1)} ${window}, ${thousands(summary.views)} views` +
      `${values.signed ? ' (signed records, once per document)' : ''}, from ${dir}:`,
  );
  console.log('');
  const showRemote = remote === undefined;
  const header = [
    'route',
    ...(showRemote ? ['remote'] : []),
    'release',
    'views',
    ...VITAL_NAMES.map((name) => `${name} p75`),
    'errors/1k views',
  ];
  const rows = summary.groups.map((group) => [
    group.key.route ?? '',
    ...(showRemote ? [group.key.remote ?? ''] : []),
    group.key.release ?? '',
    group.shell ? '-' : thousands(group.views),
    ...VITAL_NAMES.map((name) => vitalCell(group, name)),
    errorRateText(group.errorsPerThousandViews),
  ]);
  const views = header.indexOf('views');
  for (const line of table([header, ...rows], [views, header.length - 1])) console.log(line);
  if (summary.groups.some((group) => group.shell)) {
    console.log("(shell: the shell's errors, per 1,000 of every view of the route)");
  }

  const attributed = summary.groups.filter((group) =>
    Object.values(group.poorTargets).some((targets) => targets.length > 0),
  );
  console.log('');
  if (attributed.length === 0) {
    console.log('No poor LCP, INP or CLS named an element.');
    return;
  }
  console.log('Elements most often behind a poor LCP, INP or CLS (count, element, the remote whose DOM holds it):');
  for (const group of attributed) {
    console.log(`  ${group.key.route} ${group.key.remote} ${group.key.release}`);
    const lines = Object.entries(group.poorTargets).flatMap(([name, targets]) =>
      targets.map((entry) => [`    ${name}`, String(entry.count), `${entry.target} (${entry.targetRemote})`]),
    );
    for (const line of table(lines, [1])) console.log(line);
  }
});
