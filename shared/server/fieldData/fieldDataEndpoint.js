// POST /_field-data: the shell's collector sends one beacon per page view (@nativegtm/contract/fieldData). Anyone can
// post here, so everything is untrusted: a body over MAX_BEACON_BYTES is refused unread, unknown fields are dropped
// (parseBeacon), labels are bounded (fieldLabels.js), and the answer is an empty status. What is kept goes to the
// record store and the metrics.
//
// Rate: behind a CDN every visitor arrives from one address, so there is no cap per address (it would refuse the
// site's own traffic). Unsigned beacons share one budget per process, far above real traffic (the bench posts 2,000 a
// second to the whole site); beyond it they are refused with 429. Signed beacons have a cap per token
// (tokenRates.js): what a decision counts of a token is bounded by the readers (one set of records per document;
// signedRecords.js), what it costs the disk by the cap. Past the store's byte budget (storeBudget.js), every beacon
// gets 429 and its records are not kept.
const getRawBody = require('raw-body');
const { MAX_BEACON_BYTES, parseBeacon } = require('@nativegtm/contract/fieldData');

/** @typedef {import('./recordStore').FieldRecord} FieldRecord */
/** @typedef {Pick<import('./fieldRecords').FieldRecordSink, 'write'>} RecordWriter */
/** @typedef {import('./fieldLabels').FieldLabels} FieldLabels */
/** @typedef {import('./fieldTokens').FieldTokens} FieldTokens */
/** @typedef {import('../observability/metrics').Metrics} Metrics */
/** @typedef {import('./storeBudget').StoreBudget} StoreBudget */
/** @typedef {ReturnType<typeof import('./tokenRates').createTokenRates>} TokenRates */

/** Unsigned beacons one process accepts a second (and at once). */
const DEFAULT_UNSIGNED_PER_SECOND = 5000;

/**
 * @param {{ labels: FieldLabels, tokens: FieldTokens, writer: RecordWriter, metrics?: Metrics,
 *   budget?: Pick<StoreBudget, 'admit'>, tokenRates?: TokenRates, unsignedPerSecond?: number, now?: () => number }} options
 *   budget: the store's byte budget (none: every beacon fits); tokenRates: the signed beacons' cap (none: no cap)
 */
function createFieldDataEndpoint({
  labels,
  tokens,
  writer,
  metrics,
  budget,
  tokenRates,
  unsignedPerSecond = DEFAULT_UNSIGNED_PER_SECOND,
  now = Date.now,
}) {
  let unsignedLeft = unsignedPerSecond;
  let refilled = now();

  /** Takes one unsigned beacon from the budget, if any is left (a token bucket that refills every millisecond). */
  function unsignedAllowed() {
    const time = now();
    unsignedLeft = Math.min(unsignedPerSecond, unsignedLeft + ((time - refilled) / 1000) * unsignedPerSecond);
    refilled = time;
    if (unsignedLeft < 1) return false;
    unsignedLeft -= 1;
    return true;
  }

  /**
   * @param {import('node:http').ServerResponse} res
   * @param {number} status
   * @param {Record<string, string>} [headers]
   */
  function answer(res, status, headers = {}) {
    res.statusCode = status;
    res.setHeader('Cache-Control', 'no-store');
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.end();
  }

  /**
   * The records of a beacon, labelled by what the site knows.
   * @param {import('@nativegtm/contract/fieldData').Beacon} beacon
   * @param {{ doc: string, cohort: string, net: string, canary?: string } | undefined} proof what its token proves
   * @returns {FieldRecord[]}
   */
  function recordsOf(beacon, proof) {
    const { view } = beacon;
    const t = now();
    const route = labels.route(view.route);
    const remote = labels.remote(view.remote);
    const release = labels.release(remote, view.build);
    const { device, nav } = view;
    const signed = proof !== undefined;
    const doc = proof?.doc;
    const cohort = proof?.cohort;
    const seq = signed ? view.seq : undefined;
    const net = proof?.net;
    const canary = proof?.canary;
    // Every record has the same fields (those it does not have are undefined, which JSON leaves out): one shape for the
    // engine, built without spreading, as this runs for every record of every visitor.
    /** @type {FieldRecord[]} */
    const records = [];
    if (beacon.first) {
      records.push({ t, type: 'view', route, remote, release, device, nav, signed, doc, cohort, seq, net, canary });
      metrics?.pageView({ route, remote, release, device, nav });
    }
    for (const { name, value, target, targetRemote } of beacon.vitals) {
      const where = target === undefined ? undefined : labels.remote(targetRemote ?? '');
      records.push({
        t,
        type: 'vital',
        route,
        remote,
        release,
        device,
        nav,
        signed,
        doc,
        cohort,
        seq,
        net,
        canary,
        name,
        value,
        target,
        targetRemote: where,
      });
      metrics?.webVital({ route, remote, release, device }, name, value);
    }
    for (const error of beacon.errors) {
      const thrower = labels.remote(error.remote);
      const threw = labels.release(thrower, error.build);
      records.push({
        t,
        type: 'error',
        route,
        remote: thrower,
        release: threw,
        device,
        nav,
        signed,
        doc,
        cohort,
        seq,
        net,
        canary,
        source: error.source,
        page: remote,
      });
      metrics?.browserError({ remote: thrower, release: threw, source: error.source });
    }
    return records;
  }

  /**
   * @param {import('node:http').IncomingMessage} req
   * @param {import('node:http').ServerResponse} res
   */
  return function receive(req, res) {
    const declared = req.headers['content-length'];
    if (Number(declared ?? 0) > MAX_BEACON_BYTES) {
      metrics?.beacon('oversized');
      // The rest of the body is not read: the connection closes.
      return answer(res, 413, { Connection: 'close' });
    }
    // Read as bytes and decoded here: raw-body's `encoding` option decodes through iconv-lite, which costs more than the
    // rest of the request.
    return getRawBody(req, { limit: MAX_BEACON_BYTES, length: declared }).then(
      (body) => {
        const beacon = parseBeacon(body.toString('utf8'));
        if (!beacon) {
          metrics?.beacon('malformed');
          return answer(res, 400);
        }
        const proof = tokens.verify(beacon.token);
        // A page a developer overrides with a dev server (@nativegtm/contract/overrides) says nothing of the site.
        if (proof?.cohort === 'override') {
          metrics?.beacon('override');
          return answer(res, 204);
        }
        if (proof === undefined && !unsignedAllowed()) {
          metrics?.beacon('limited');
          return answer(res, 429, { 'Retry-After': '1' });
        }
        if (proof !== undefined && tokenRates?.allowed(proof.doc) === false) {
          metrics?.beacon('limited-signed');
          return answer(res, 429, { 'Retry-After': '2' });
        }
        if (budget?.admit() === false) {
          metrics?.beacon('over-budget');
          return answer(res, 429, { 'Retry-After': '60' });
        }
        writer.write(recordsOf(beacon, proof));
        metrics?.beacon(proof === undefined ? 'accepted' : 'signed');
        return answer(res, 204);
      },
      (/** @type {getRawBody.RawBodyError} */ error) => {
        if (error.type === 'entity.too.large') {
          metrics?.beacon('oversized');
          return answer(res, 413, { Connection: 'close' });
        }
        // The client went away, or sent less or more than it declared: there is no one to answer.
        return res.destroy();
      },
    );
  };
}

module.exports = { createFieldDataEndpoint };
