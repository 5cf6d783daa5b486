// What a reader that decides (the canary) keeps of the records: only signed ones, and of those at most one set per
// document. A token proves the site served a private document; it does not stop its holder from posting many times.
// So, over all the records of every process and node: the first view record of each (document, view), the first value
// of each vital of each (document, view), at most MAX_ERRORS_PER_BEACON errors of each (document, view), and no view
// past MAX_VIEWS_PER_DOCUMENT. This is done when reading, where every worker's records meet.
const { MAX_ERRORS_PER_BEACON, MAX_VIEWS_PER_DOCUMENT } = require('@nativegtm/contract/fieldData');

/** @typedef {import('./recordStore').FieldRecord | import('./recordStore').DocumentRecord} StoredRecord */

/**
 * A filter for one pass over the records: true for the ones that count.
 * @returns {(record: StoredRecord) => boolean}
 */
function signedOncePerDocument() {
  /** @type {Map<string, number>} */
  const seen = new Map();
  return (record) => {
    if (!record.signed || record.doc === undefined || record.seq === undefined) return false;
    if (record.seq >= MAX_VIEWS_PER_DOCUMENT) return false;
    const key = `${record.doc}.${record.seq}.${record.type === 'vital' ? record.name : record.type}`;
    const count = (seen.get(key) ?? 0) + 1;
    seen.set(key, count);
    return count <= (record.type === 'error' ? MAX_ERRORS_PER_BEACON : 1);
  };
}

module.exports = { signedOncePerDocument };
