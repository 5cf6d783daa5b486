// Field records for tests of what reads the record store (summaries, `npm run vitals`, the status page): one maker
// per record type, each record with the labels the test gives over a set of defaults.

/** @typedef {import('./recordStore').FieldRecord} FieldRecord */
/** @typedef {Partial<Omit<import('./recordStore').ErrorRecord, 'type' | 'source'>> & Record<string, unknown>} Labels */

/**
 * @param {Labels} [defaults] what every record made gets unless a call gives it: its time `t` and release, often
 */
function recordMaker(defaults = {}) {
  /** @param {Labels} [labels] */
  const labelled = (labels) => ({
    t: 0,
    route: '/',
    remote: 'candidates',
    release: 'r',
    device: 'desktop',
    nav: 'document',
    signed: false,
    ...defaults,
    ...labels,
  });
  return {
    labelled,
    /** @param {Labels} [labels] */
    view: (labels) => /** @type {FieldRecord} */ ({ ...labelled(labels), type: 'view' }),
    /**
     * @param {import('@nativegtm/contract/fieldData').VitalName} name
     * @param {number} value
     * @param {Labels} [labels]
     */
    vital: (name, value, labels) => /** @type {FieldRecord} */ ({ ...labelled(labels), type: 'vital', name, value }),
    /**
     * An uncaught error on the candidates page unless the labels say otherwise.
     * @param {Labels} [labels]
     */
    error: (labels) =>
      /** @type {FieldRecord} */ ({ page: 'candidates', source: 'error', ...labelled(labels), type: 'error' }),
  };
}

module.exports = { recordMaker };
