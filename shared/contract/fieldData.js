// Field data: what the shell's collector measures of each page view and sends to the site's own origin, and what the
// servers accept of it. The browser writes a beacon with these names and the servers read it with `parseBeacon`, so
// both agree on the shape. A beacon is untrusted input: only known fields are kept, every value is bounded, and a
// label the site does not know is the server's to turn into `other` (it knows the routes, remotes and releases).

/** Where the collector posts, on the site's own origin. */
const FIELD_DATA_PATH = '/_field-data';
/**
 * Where nginx asks its collector for a private document's token (an internal SSI include: never reachable from
 * outside), answered with the token's `<meta>` tag.
 */
const FIELD_TOKEN_PATH = `${FIELD_DATA_PATH}/token`;
/** A beacon larger than this is refused unread: one view's batch is well under 2 KB. */
const MAX_BEACON_BYTES = 8 * 1024;
/**
 * The name of the collector's chunk (the shell's fieldData/signals.ts gives it as a webpack magic comment, which takes
 * only a literal): how the bench tells the collector's JavaScript, which loads after LCP, from the page's.
 */
const FIELD_DATA_CHUNK = 'field-data';
/** The `<meta name>` of a private document's proof that the site served it (field-data token). */
const FIELD_TOKEN_META = 'nativegtm-field-token';

/**
 * The tag a private document carries its token in.
 * @param {string} token
 */
const fieldTokenTag = (token) => `<meta name="${FIELD_TOKEN_META}" content="${token}" />`;
/** The `<meta name>` that tells the collector the share of page views to measure (RUM_SAMPLE_RATE). */
const SAMPLE_RATE_META = 'nativegtm-rum-sample-rate';
/** The views of one document (its load and the in-app navigations after it) whose records one token can sign. */
const MAX_VIEWS_PER_DOCUMENT = 20;

/** The label for a route, remote or release the site does not know. */
const OTHER = 'other';
/** The label for what the shell itself owns (an error in its own files, an element outside every remote). */
const SHELL = 'shell';

/** The Web Vitals measured, with web.dev's thresholds: good up to the first, poor above the second. */
const VITALS = /** @type {const} */ ({
  LCP: { unit: 'ms', good: 2500, poor: 4000 },
  INP: { unit: 'ms', good: 200, poor: 500 },
  CLS: { unit: 'score', good: 0.1, poor: 0.25 },
  FCP: { unit: 'ms', good: 1800, poor: 3000 },
  TTFB: { unit: 'ms', good: 800, poor: 1800 },
});
/** @typedef {keyof typeof VITALS} VitalName */
/** @type {VitalName[]} */
const VITAL_NAMES = /** @type {VitalName[]} */ (Object.keys(VITALS));
/** The vitals whose poor values carry the element that made them poor. */
const ATTRIBUTED_VITALS = /** @type {const} */ (['LCP', 'INP', 'CLS']);

/** A value beyond these is not a measurement (a clock jump, a forged record): the record is dropped. */
const MAX_VALUE = { ms: 10 * 60 * 1000, score: 100 };

/** How a page came to the screen: as the server's document, or through the shell's in-app navigation. */
const NAVIGATIONS = /** @type {const} */ (['document', 'navigation']);
/** @typedef {(typeof NAVIGATIONS)[number]} Navigation */

/** Device classes, from the viewport's width in CSS pixels: below 768 a phone, below 1024 a tablet. */
const DEVICES = /** @type {const} */ (['mobile', 'tablet', 'desktop']);
/** @typedef {(typeof DEVICES)[number]} Device */

/** What threw: an uncaught error, an unhandled rejection, or a remote that failed to load or render. */
const ERROR_SOURCES = /** @type {const} */ (['error', 'rejection', 'remote-failure']);
/** @typedef {(typeof ERROR_SOURCES)[number]} ErrorSource */
/** Errors one beacon may carry; the collector stops counting a view's errors there too. */
const MAX_ERRORS_PER_BEACON = 10;

/** What a label may look like before the server checks it against what it knows (routes, names, ids, builds). */
const LABEL = /^[A-Za-z0-9/_.-]{1,64}$/;
/** A CSS selector of an attribution target, cut to this length. */
const MAX_TARGET_LENGTH = 100;
/**
 * Who a private document was served to: a browser previewing a release, one overriding a remote with a dev server
 * (overrides.js: its beacons are dropped), or one side of a remote's canary (`canary:jobs`, `control:jobs`:
 * canaryBuckets.js).
 */
const COHORT = /^(?:preview|override|(?:canary|control):[a-z][a-z0-9-]{0,39})$/;
/**
 * A field-data token: `<document id>.<expiry in seconds since 1970>.<cohort>.<network>.<canary>.<signature>`, where
 * network is a keyed hash of the visitor's network and canary the canary it was issued for (`-` for none): the servers
 * sign and check it; the browser hands it back as it is.
 */
const TOKEN = new RegExp(
  `^[0-9a-f]{16}\\.[0-9]{10}\\.${COHORT.source.slice(1, -1)}\\.[0-9a-f]{16}\\.(?:[0-9a-z]{1,11}|-)\\.[A-Za-z0-9_-]{43}$`,
);

/**
 * @typedef {{ name: VitalName, value: number, target?: string, targetRemote?: string }} Vital
 *   target: the attribution's element as a CSS selector, sent for a poor LCP, INP or CLS only; targetRemote: the
 *   remote whose DOM holds it (or "shell")
 * @typedef {{ source: ErrorSource, remote: string, build?: string }} FieldError
 *   remote: whose files threw (or "shell"); build: that remote's build, when the page knows it
 * @typedef {{ seq: number, route: string, remote: string, build: string, nav: Navigation, device: Device }} View
 *   seq: the view's place in its document (0: the document load); route: the page's route as the registry writes it
 *   (or "not-found"); remote and build: who owns the page and which build of it the page ran
 * @typedef {{ v: 1, token?: string, first: boolean, view: View, vitals: Vital[], errors: FieldError[] }} Beacon
 *   first: this beacon opens the view (a view is counted once, from its first beacon)
 */

/**
 * good, needs-improvement or poor, by web.dev's thresholds.
 * @param {VitalName} name
 * @param {number} value
 * @returns {'good' | 'needs-improvement' | 'poor'}
 */
function rating(name, value) {
  const { good, poor } = VITALS[name];
  if (value <= good) return 'good';
  return value <= poor ? 'needs-improvement' : 'poor';
}

/**
 * The device class of a viewport `width` CSS pixels wide.
 * @param {number} width
 * @returns {Device}
 */
function deviceClass(width) {
  if (width < 768) return 'mobile';
  return width < 1024 ? 'tablet' : 'desktop';
}

/**
 * @param {unknown} value
 * @returns {Record<string, unknown>}
 */
const object = (value) =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? /** @type {Record<string, unknown>} */ (value)
    : {};

/**
 * @param {unknown} value
 * @returns {string | undefined}
 */
const label = (value) => (typeof value === 'string' && LABEL.test(value) ? value : undefined);

/**
 * @template {string} T
 * @param {unknown} value
 * @param {readonly T[]} allowed
 * @returns {T | undefined}
 */
const oneOf = (value, allowed) => (allowed.includes(/** @type {T} */ (value)) ? /** @type {T} */ (value) : undefined);

/**
 * A selector as text: control characters out, cut to MAX_TARGET_LENGTH.
 * @param {unknown} value
 * @returns {string | undefined}
 */
function target(value) {
  if (typeof value !== 'string' || value === '') return undefined;
  return value.replace(/\p{Cc}/gu, ' ').slice(0, MAX_TARGET_LENGTH);
}

/**
 * @param {unknown} value
 * @returns {Vital | undefined}
 */
function vital(value) {
  const item = object(value);
  const name = oneOf(item.name, VITAL_NAMES);
  const number = item.value;
  if (!name || typeof number !== 'number' || !Number.isFinite(number)) return undefined;
  if (number < 0 || number > MAX_VALUE[VITALS[name].unit]) return undefined;
  /** @type {Vital} */
  const kept = { name, value: number };
  const where = target(item.target);
  if (where && /** @type {readonly string[]} */ (ATTRIBUTED_VITALS).includes(name)) {
    kept.target = where;
    kept.targetRemote = label(item.targetRemote) ?? OTHER;
  }
  return kept;
}

/**
 * @param {unknown} value
 * @returns {FieldError | undefined}
 */
function fieldError(value) {
  const item = object(value);
  const source = oneOf(item.source, ERROR_SOURCES);
  const remote = label(item.remote);
  if (!source || !remote) return undefined;
  const build = label(item.build);
  return build ? { source, remote, build } : { source, remote };
}

/**
 * @param {unknown} value
 * @returns {View | undefined}
 */
function view(value) {
  const item = object(value);
  const seq = item.seq;
  const route = label(item.route);
  const remote = label(item.remote);
  const build = label(item.build);
  const nav = oneOf(item.nav, NAVIGATIONS);
  const device = oneOf(item.device, DEVICES);
  if (typeof seq !== 'number' || !Number.isInteger(seq) || seq < 0 || seq > 1e6) return undefined;
  if (!route || !remote || !build || !nav || !device) return undefined;
  return { seq, route, remote, build, nav, device };
}

/**
 * The beacon in a request body, with only its known fields, or null when it is not one (not JSON, another version,
 * no valid view). Records that are not measurements are dropped one by one; the rest of the beacon is kept. Never
 * throws.
 * @param {string} text
 * @returns {Beacon | null}
 */
function parseBeacon(text) {
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const body = object(json);
  const seen = view(body.view);
  if (body.v !== 1 || !seen) return null;
  const list = (/** @type {unknown} */ value, /** @type {number} */ max) =>
    Array.isArray(value) ? value.slice(0, max) : [];
  /** @type {Set<string>} */
  const names = new Set();
  /** @type {Vital[]} */
  const vitals = [];
  for (const item of list(body.vitals, VITAL_NAMES.length)) {
    const kept = vital(item);
    // One value of each vital per beacon: a repeated name is not a second measurement.
    if (kept && !names.has(kept.name)) {
      names.add(kept.name);
      vitals.push(kept);
    }
  }
  const errors = /** @type {FieldError[]} */ (
    list(body.errors, MAX_ERRORS_PER_BEACON)
      .map(fieldError)
      .filter((item) => item !== undefined)
  );
  /** @type {Beacon} */
  const beacon = { v: 1, first: body.first === true, view: seen, vitals, errors };
  if (typeof body.token === 'string' && TOKEN.test(body.token)) beacon.token = body.token;
  return beacon;
}

module.exports = {
  FIELD_DATA_PATH,
  FIELD_TOKEN_PATH,
  FIELD_DATA_CHUNK,
  MAX_BEACON_BYTES,
  FIELD_TOKEN_META,
  fieldTokenTag,
  SAMPLE_RATE_META,
  MAX_VIEWS_PER_DOCUMENT,
  OTHER,
  SHELL,
  VITALS,
  VITAL_NAMES,
  ATTRIBUTED_VITALS,
  NAVIGATIONS,
  DEVICES,
  ERROR_SOURCES,
  MAX_ERRORS_PER_BEACON,
  MAX_TARGET_LENGTH,
  TOKEN,
  COHORT,
  rating,
  deviceClass,
  parseBeacon,
};
