// The two sides a canary step compares (verdict.js), from the field-data records of its window: only signed records,
// once per document (@nativegtm/server/fieldData/signedRecords), of the documents served to the canary or to its
// control (their tokens' cohort, `canary:<remote>` and `control:<remote>`), and of those only what concerns the
// remote: views of its pages and their vitals, errors its files threw or its failures to load, wherever they
// happened, and the built-in server's own record of each of its page's documents (whether its fragment made it in).
// Unsigned records, and records of other cohorts, never count. And whether the store dropped records for its byte
// budget in the window (@nativegtm/server/fieldData/storeBudget): then the sides are not what visitors sent.
const { readRecords } = require('@nativegtm/server/fieldData/recordStore');
const { droppedIn } = require('@nativegtm/server/fieldData/storeBudget');
const { signedOncePerDocument } = require('@nativegtm/server/fieldData/signedRecords');
const { JUDGED_VITALS } = require('./verdict');

/** @typedef {import('@nativegtm/server/fieldData/recordStore').FieldRecord} FieldRecord */
/** @typedef {import('@nativegtm/server/fieldData/recordStore').DocumentRecord} DocumentRecord */
/** @typedef {import('./verdict').Side} Side */

/** The vitals a verdict judges. */
const JUDGED = new Set(/** @type {readonly string[]} */ (JUDGED_VITALS));

/** @returns {Required<Side>} */
const emptySide = () => ({
  views: 0,
  errors: 0,
  documents: 0,
  failedFragments: 0,
  values: { LCP: [], INP: [], CLS: [] },
});

/**
 * @param {AsyncIterable<FieldRecord> | Iterable<FieldRecord>} records
 * @param {string} remote
 * @returns {Promise<{ canary: Required<Side>, control: Required<Side> }>}
 */
async function sidesOf(records, remote) {
  const sides = { canary: emptySide(), control: emptySide() };
  /** @type {Record<string, Required<Side>>} */
  const byCohort = { [`canary:${remote}`]: sides.canary, [`control:${remote}`]: sides.control };
  const counts = signedOncePerDocument();
  for await (const stored of records) {
    const record = /** @type {FieldRecord | DocumentRecord} */ (stored);
    const side = record.cohort === undefined ? undefined : byCohort[record.cohort];
    if (!side || !counts(record) || record.remote !== remote) continue;
    if (record.type === 'view') side.views += 1;
    else if (record.type === 'error') side.errors += 1;
    else if (record.type === 'document') {
      side.documents += 1;
      if (record.fragment === 'failed') side.failedFragments += 1;
    } else if (JUDGED.has(record.name))
      side.values[/** @type {'LCP' | 'INP' | 'CLS'} */ (record.name)]?.push(record.value);
  }
  return sides;
}

/**
 * The sides of a remote's canary over a window of the record store, and whether records were dropped in it.
 * @param {string} dir FIELD_DATA_DIR
 * @param {string} remote
 * @param {{ since: number, until: number }} window ms since 1970
 * @returns {Promise<{ canary: Required<Side>, control: Required<Side>, dropped: boolean }>}
 */
async function sidesInStore(dir, remote, window) {
  // Asked once the records are read: a drop while they were read counts too.
  const sides = await sidesOf(readRecords(dir, window), remote);
  return { ...sides, dropped: droppedIn(dir, window) };
}

module.exports = { sidesOf, sidesInStore };
