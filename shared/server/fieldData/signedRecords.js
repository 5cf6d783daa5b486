// What a reader that decides (the canary) keeps of the records: only signed ones, and of those at most one set per
// document. A token proves the site served a private document; it does not stop its holder from posting many times.
// So, over all the records of every process and node: the first view record of each (document, view), the first value
// of each vital of each (document, view), at most MAX_ERRORS_PER_BEACON errors of each (document, view), and no view
// past MAX_VIEWS_PER_DOCUMENT. This is done when reading, where every worker's records meet.
//
// Memory: one small table of counts per document seen (MAX_VIEWS_PER_DOCUMENT × the kinds of record, a byte each:
// 180 bytes, in one shared buffer) and its id, not one entry per record, so a window of a million records costs what its documents do (a few MB for the tens of
// thousands a million records come from), not what its records do.
const { MAX_ERRORS_PER_BEACON, MAX_VIEWS_PER_DOCUMENT, VITAL_NAMES } = require('@nativegtm/contract/fieldData');

/** @typedef {import('./recordStore').FieldRecord | import('./recordStore').DocumentRecord} StoredRecord */

/** Each kind of record's column in a document's table: its type, or a vital's name; any other kind shares the last. */
const KINDS = new Map(['view', 'error', 'document', ...VITAL_NAMES].map((kind, index) => [kind, index]));
const OTHER = KINDS.size;
const COLUMNS = KINDS.size + 1;

/**
 * A filter for one pass over the records: true for the ones that count.
 * @returns {(record: StoredRecord) => boolean}
 */
function signedOncePerDocument() {
  const size = MAX_VIEWS_PER_DOCUMENT * COLUMNS;
  /** Each document's table's place in `counts`. @type {Map<string, number>} */
  const tables = new Map();
  /** Every document's table, one after the other (grown by doubling): one allocation, not one per document. */
  let counts = new Uint8Array(size * 1024);
  return (record) => {
    const { doc, seq } = record;
    if (!record.signed || typeof doc !== 'string' || !Number.isInteger(seq)) return false;
    if (/** @type {number} */ (seq) < 0 || /** @type {number} */ (seq) >= MAX_VIEWS_PER_DOCUMENT) return false;
    let table = tables.get(doc);
    if (table === undefined) {
      table = tables.size * size;
      if (table + size > counts.length) {
        const grown = new Uint8Array(counts.length * 2);
        grown.set(counts);
        counts = grown;
      }
      tables.set(doc, table);
    }
    const kind = KINDS.get(record.type === 'vital' ? record.name : record.type) ?? OTHER;
    const cell = table + /** @type {number} */ (seq) * COLUMNS + kind;
    const limit = record.type === 'error' ? MAX_ERRORS_PER_BEACON : 1;
    const count = /** @type {number} */ (counts[cell]);
    if (count >= limit) return false;
    counts[cell] = count + 1;
    return true;
  };
}

module.exports = { signedOncePerDocument };
