// What the field data of a window says, per group of records (route × release, remote × release, each per time
// bucket or not): page views, the 75th percentile of each Web Vital with its rating and the share of good, needs
// improvement and poor values, errors per 1,000 views, and the elements most often behind a poor LCP, INP or CLS.
// `npm run vitals`, the status page on the metrics port and the canary all read the record store through it, so they
// agree on every figure.
//
// Exact: every value of the window is held and sorted, and p75 is the nearest-rank percentile, the value at rank
// ceil(0.75 × n) of the n sorted values: a value a visitor had, not an interpolation or a histogram's estimate (the
// metrics port's histograms are estimates; this is not). Nearest rank rather than linear interpolation because it
// agrees with the rating rule web.dev states: p75 is good exactly when at least 75% of the values are good (with
// interpolation, [1, 1, 1, 9999] ms of LCP has 75% good values and a p75 of 2,500.5 ms, "needs improvement"). What
// it cannot be more exact than is the records: the share of views RUM_SAMPLE_RATE measures, beacons a browser never
// sent, at most a second of a crashed writer's buffer, and, unless only signed records are read
// (signedRecords.js), values anyone could post.
//
// Memory: one number per vital record of the window in each grouping (a plain array of numbers: 8 bytes a value;
// a view sends at most one of each of the five vitals, 40 bytes a view, so an hour of a million views is about 40 MB),
// sorted once when the result is read, plus a count per distinct element behind a poor value. Views and errors are
// counted, not held.
const { ATTRIBUTED_VITALS, SHELL, VITALS, VITAL_NAMES, rating } = require('@nativegtm/contract/fieldData');

/** @typedef {import('./recordStore').FieldRecord} FieldRecord */
/** @typedef {import('@nativegtm/contract/fieldData').VitalName} VitalName */
/** @typedef {(typeof ATTRIBUTED_VITALS)[number]} AttributedVital */
/** @typedef {'good' | 'needs-improvement' | 'poor'} Rating */

/** The percentile web.dev judges the Web Vitals at: 75% of page views. */
const PERCENTILE = 0.75;
/** How many of the elements behind poor values are listed. */
const TOP_TARGETS = 3;
/** Views per this many in an error rate. */
const PER_VIEWS = 1000;

/**
 * What a grouping may split by: a record's labels (for an error, remote and release are the thrower's).
 * @typedef {'route' | 'remote' | 'release' | 'device' | 'nav'} Dimension
 */
/**
 * @typedef {object} Grouping
 * @property {Dimension[]} by the labels that make a group, e.g. ['route', 'release'] or ['remote', 'release']
 * @property {number} [bucketMs] split each group further into time buckets this long (by when a record was received)
 * @property {number} [origin] where the buckets start (ms since 1970; 0 unless given): the window's start, say
 */
/**
 * @typedef {object} VitalSummary
 * @property {number} count the values
 * @property {number} p75 the nearest-rank 75th percentile: milliseconds, or CLS's score
 * @property {Rating} rating p75's rating by web.dev's thresholds
 * @property {Record<Rating, number>} shares the share of values of each rating, 0 to 1
 */
/**
 * @typedef {{ target: string, targetRemote: string, count: number }} TargetCount
 *   target: the element as a CSS selector; targetRemote: the remote whose DOM holds it (or "shell", "other")
 */
/**
 * @typedef {object} GroupSummary
 * @property {Partial<Record<Dimension, string>>} key the group's labels, those of the grouping's `by`
 * @property {number} [bucket] the start of its time bucket (ms since 1970), when the grouping has buckets
 * @property {boolean} shell the shell's errors: apart, and per 1,000 of every view that shares the group's other
 *   labels (the shell is on every page), since no view is the shell's
 * @property {number} views page views
 * @property {Partial<Record<VitalName, VitalSummary>>} vitals those with at least one value
 * @property {number} errors errors thrown by the group's remote and release (by the shell, for a shell group)
 * @property {number | undefined} errorsPerThousandViews undefined when there are no views to divide by
 * @property {Record<AttributedVital, TargetCount[]>} poorTargets the most frequent elements behind poor values, at
 *   most TOP_TARGETS each, most frequent first
 */
/**
 * @typedef {object} Summary
 * @property {GroupSummary[]} groups ordered by their labels, then bucket
 * @property {number} views every view counted
 * @property {number} records every record counted (that passed the filter)
 */

/**
 * The nearest-rank percentile of sorted values: the one at rank ceil(p × n).
 * @param {ArrayLike<number>} sorted ascending, not empty
 * @param {number} p 0 to 1
 */
function nearestRank(sorted, p) {
  return /** @type {number} */ (sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]);
}

/**
 * @param {number[]} values
 * @param {VitalName} name
 * @returns {VitalSummary}
 */
function summarizeVital(values, name) {
  // A typed array sorts numerically, in place, without boxing.
  const sorted = Float64Array.from(values).sort();
  const p75 = nearestRank(sorted, PERCENTILE);
  const { good, poor } = VITALS[name];
  let goodCount = 0;
  let poorCount = 0;
  for (const value of sorted) {
    if (value <= good) goodCount += 1;
    else if (value > poor) poorCount += 1;
  }
  const count = sorted.length;
  return {
    count,
    p75,
    rating: rating(name, p75),
    shares: {
      good: goodCount / count,
      'needs-improvement': (count - goodCount - poorCount) / count,
      poor: poorCount / count,
    },
  };
}

/**
 * @param {Map<string, TargetCount>} counts
 * @returns {TargetCount[]}
 */
function topTargets(counts) {
  return [...counts.values()]
    .sort(
      (a, b) => b.count - a.count || a.target.localeCompare(b.target) || a.targetRemote.localeCompare(b.targetRemote),
    )
    .slice(0, TOP_TARGETS)
    .map((entry) => ({ ...entry }));
}

/**
 * Counts records into groups, one record at a time: `add` each, then read `result` (as often as wanted).
 * @param {Grouping} grouping
 */
function createSummary({ by, bucketMs, origin = 0 }) {
  /**
   * @typedef {{ key: Partial<Record<Dimension, string>>, bucket: number | undefined, shell: boolean, views: number,
   *   errors: number, values: Partial<Record<VitalName, number[]>>,
   *   targets: Record<AttributedVital, Map<string, TargetCount>> }} Group
   */
  /** @type {Map<string, Group>} */
  const groups = new Map();
  let records = 0;
  /** The labels a shell group's rate is over: all but remote and release, whose views are never the shell's. */
  const context = by.filter((dimension) => dimension !== 'remote' && dimension !== 'release');

  /**
   * A group's identity: its labels of `dimensions`, and its bucket.
   * @param {Partial<Record<Dimension, string>>} labels
   * @param {Dimension[]} dimensions
   * @param {number | undefined} bucket
   */
  const keyOf = (labels, dimensions, bucket) =>
    JSON.stringify([...dimensions.map((dimension) => labels[dimension]), bucket ?? null]);

  /** @param {FieldRecord} record */
  function groupOf(record) {
    const labels = Object.fromEntries(by.map((dimension) => [dimension, String(record[dimension])]));
    const bucket = bucketMs === undefined ? undefined : origin + Math.floor((record.t - origin) / bucketMs) * bucketMs;
    const shell = record.type === 'error' && record.remote === SHELL;
    const id = `${shell ? 'shell' : ''}${keyOf(labels, by, bucket)}`;
    let group = groups.get(id);
    if (!group) {
      group = {
        key: labels,
        bucket,
        shell,
        views: 0,
        errors: 0,
        values: {},
        targets: { LCP: new Map(), INP: new Map(), CLS: new Map() },
      };
      groups.set(id, group);
    }
    return group;
  }

  return {
    /** @param {FieldRecord} record */
    add(record) {
      // Records are read back from files: one of a type or vital this code does not know is not counted.
      if (record.type !== 'view' && record.type !== 'vital' && record.type !== 'error') return;
      if (record.type === 'vital' && !(Object.hasOwn(VITALS, record.name) && Number.isFinite(record.value))) return;
      records += 1;
      const group = groupOf(record);
      if (record.type === 'view') group.views += 1;
      else if (record.type === 'error') group.errors += 1;
      else {
        (group.values[record.name] ??= []).push(record.value);
        const attributed = /** @type {readonly string[]} */ (ATTRIBUTED_VITALS).includes(record.name);
        if (attributed && record.target && rating(record.name, record.value) === 'poor') {
          const targets = group.targets[/** @type {AttributedVital} */ (record.name)];
          const targetRemote = record.targetRemote ?? 'other';
          const id = `${targetRemote} ${record.target}`;
          const known = targets.get(id);
          if (known) known.count += 1;
          else targets.set(id, { target: record.target, targetRemote, count: 1 });
        }
      }
    },

    /** @returns {Summary} */
    result() {
      /** Views by a shell group's labels: what the shell's errors are counted against. @type {Map<string, number>} */
      const contextViews = new Map();
      let views = 0;
      for (const group of groups.values()) {
        views += group.views;
        const id = keyOf(group.key, context, group.bucket);
        contextViews.set(id, (contextViews.get(id) ?? 0) + group.views);
      }
      const list = [...groups.values()].map((group) => {
        const over = group.shell ? (contextViews.get(keyOf(group.key, context, group.bucket)) ?? 0) : group.views;
        /** @type {Partial<Record<VitalName, VitalSummary>>} */
        const vitals = {};
        for (const name of VITAL_NAMES) {
          const values = group.values[name];
          if (values?.length) vitals[name] = summarizeVital(values, name);
        }
        /** @type {GroupSummary} */
        const summary = {
          key: group.key,
          shell: group.shell,
          views: group.views,
          vitals,
          errors: group.errors,
          errorsPerThousandViews: over > 0 ? (group.errors / over) * PER_VIEWS : undefined,
          poorTargets: {
            LCP: topTargets(group.targets.LCP),
            INP: topTargets(group.targets.INP),
            CLS: topTargets(group.targets.CLS),
          },
        };
        if (group.bucket !== undefined) summary.bucket = group.bucket;
        return summary;
      });
      list.sort((a, b) => {
        for (const dimension of by) {
          const order = String(a.key[dimension]).localeCompare(String(b.key[dimension]));
          if (order !== 0) return order;
        }
        return Number(a.shell) - Number(b.shell) || (a.bucket ?? 0) - (b.bucket ?? 0);
      });
      return { groups: list, views, records };
    },
  };
}

/**
 * One pass over `records` into a summary.
 * @param {AsyncIterable<FieldRecord> | Iterable<FieldRecord>} records e.g. recordStore's readRecords
 * @param {Grouping} grouping
 * @param {{ filter?: (record: FieldRecord) => boolean }} [options]
 *   filter: the records that count, e.g. signedOncePerDocument() (signedRecords.js) or ofRemote(name)
 * @returns {Promise<Summary>}
 */
async function summarize(records, grouping, { filter = () => true } = {}) {
  const summary = createSummary(grouping);
  for await (const record of records) if (filter(record)) summary.add(record);
  return summary.result();
}

/**
 * A filter for one remote's records: the views and vitals of its pages, the errors its files threw.
 * @param {string} remote
 * @returns {(record: FieldRecord) => boolean}
 */
const ofRemote = (remote) => (record) => record.remote === remote;

module.exports = { createSummary, summarize, ofRemote, nearestRank };
