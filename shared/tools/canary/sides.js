// The two sides a canary step compares (verdict.js), from the field-data records of its window: only signed records,
// once per document (@nativegtm/server/fieldData/signedRecords), of the documents served for this canary (their
// tokens name it: a tab from an ended canary counts for no later one) to its canary or to its control (their tokens'
// cohort, `canary:<remote>` and `control:<remote>`), and of those only what concerns the remote: views of its pages
// and their vitals, errors its files threw or its failures to load, wherever they happened, and the built-in server's
// own record of each of its page's documents (whether its fragment made it in). Unsigned records, and records of
// other cohorts or canaries, never count.
//
// Then networks (each token carries a keyed hash of its visitor's network): one network keeps at most a share of a
// side's views, of each vital's values, of its errors and of its documents (networkCap.js), and the side says from
// how many networks its views came, for the verdict to want enough of them. And whether the store dropped
// records in the window (a folder's byte budget, a database's buffer while it was down:
// @nativegtm/server/fieldData/fieldRecords): then the sides are not what visitors sent. On a database, the records
// are every node's.
const { signedOncePerDocument } = require('@nativegtm/server/fieldData/signedRecords');
const { capNetworks } = require('./networkCap');
const { JUDGED_VITALS } = require('./verdict');

/** @typedef {import('@nativegtm/server/fieldData/recordStore').FieldRecord} FieldRecord */
/** @typedef {import('@nativegtm/server/fieldData/recordStore').DocumentRecord} DocumentRecord */
/** @typedef {import('./verdict').Side} Side */
/** @typedef {import('./verdict').JudgedVital} JudgedVital */
/** @typedef {import('@nativegtm/server/fieldData/fieldRecords').FieldRecordSource} FieldRecordSource */

/** The vitals a verdict judges. */
const JUDGED = new Set(/** @type {readonly string[]} */ (JUDGED_VITALS));

/**
 * What a side has seen, per network, before the cap: views (1 each), errors (1 each), documents (failed or not), each
 * judged vital's values. In the order the records came, so the cap keeps each network's first.
 */
function collected() {
  return {
    /** @type {Map<string, number[]>} */
    views: new Map(),
    /** @type {Map<string, number[]>} */
    errors: new Map(),
    /** @type {Map<string, boolean[]>} */
    documents: new Map(),
    /** @type {Record<JudgedVital, Map<string, number[]>>} */
    values: { LCP: new Map(), INP: new Map(), CLS: new Map() },
  };
}

/**
 * @template T
 * @param {Map<string, T[]>} byNetwork
 * @param {string} net
 * @param {T} item
 */
function add(byNetwork, net, item) {
  const items = byNetwork.get(net);
  if (items) items.push(item);
  else byNetwork.set(net, [item]);
}

/**
 * A side as the verdict reads it: each count capped per network.
 * @param {ReturnType<typeof collected>} seen
 * @param {number} share the most one network may keep of each count
 * @returns {Required<Side>}
 */
function capped(seen, share) {
  const documents = capNetworks(seen.documents, share);
  return {
    views: capNetworks(seen.views, share).length,
    networks: seen.views.size,
    errors: capNetworks(seen.errors, share).length,
    documents: documents.length,
    failedFragments: documents.filter(Boolean).length,
    values: {
      LCP: capNetworks(seen.values.LCP, share),
      INP: capNetworks(seen.values.INP, share),
      CLS: capNetworks(seen.values.CLS, share),
    },
  };
}

/**
 * @param {AsyncIterable<FieldRecord> | Iterable<FieldRecord>} records
 * @param {string} remote
 * @param {{ canary: string, maxNetworkShare: number }} counting canary: the key of the canary judged
 *   (@nativegtm/store/canaryInStore canaryKey); maxNetworkShare: the most one network keeps of a side
 * @returns {Promise<{ canary: Required<Side>, control: Required<Side> }>}
 */
async function sidesOf(records, remote, { canary, maxNetworkShare }) {
  const seen = { canary: collected(), control: collected() };
  /** @type {Record<string, ReturnType<typeof collected>>} */
  const byCohort = { [`canary:${remote}`]: seen.canary, [`control:${remote}`]: seen.control };
  const counts = signedOncePerDocument();
  for await (const stored of records) {
    const record = /** @type {FieldRecord | DocumentRecord} */ (stored);
    const side = record.cohort === undefined ? undefined : byCohort[record.cohort];
    if (!side || record.canary !== canary || !counts(record) || record.remote !== remote) continue;
    const net = record.net ?? '';
    if (record.type === 'view') add(side.views, net, 1);
    else if (record.type === 'error') add(side.errors, net, 1);
    else if (record.type === 'document') add(side.documents, net, record.fragment === 'failed');
    else if (JUDGED.has(record.name)) add(side.values[/** @type {JudgedVital} */ (record.name)], net, record.value);
  }
  return { canary: capped(seen.canary, maxNetworkShare), control: capped(seen.control, maxNetworkShare) };
}

/**
 * The sides of a remote's canary over a window of the record store, and whether records were dropped in it.
 * @param {FieldRecordSource} source the field data (@nativegtm/server/fieldData/fieldRecords)
 * @param {string} remote
 * @param {{ since: number, until: number }} window ms since 1970
 * @param {{ canary: string, maxNetworkShare: number }} counting
 * @returns {Promise<{ canary: Required<Side>, control: Required<Side>, dropped: boolean }>}
 */
async function sidesInStore(source, remote, window, counting) {
  // Asked once the records are read: a drop while they were read counts too.
  const sides = await sidesOf(source.read(window), remote, counting);
  return { ...sides, dropped: await source.droppedIn(window) };
}

module.exports = { sidesOf, sidesInStore };
