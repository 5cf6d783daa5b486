// Overrides: one browser sees one remote served from a developer's dev server (`npm run dev -- <remote> --against
// <site>`) inside the site as it runs. The servers and the shell agree here on the cookie that says so, which origins
// a site accepts (OVERRIDE_ORIGINS) and what the dev server needs the documents' policy to allow. A server never
// fetches from an override's origin: the overridden page renders in the browser.

/** The cookie the servers read (HttpOnly): `<remote>@<origin>`. */
const OVERRIDE_COOKIE = 'nativegtm_override';

/** Its companion the page reads, to show the notice and to send no field data. Servers never read it. */
const OVERRIDE_NOTICE_COOKIE = 'nativegtm_override_notice';

/** A working day: an override left on in a browser ends by itself. */
const OVERRIDE_MAX_AGE_SECONDS = 8 * 3600;

/** `/_override/<remote>?origin=<origin>` starts an override in the browser that opens it; `/_override/end` ends it. */
const OVERRIDE_PATH_PREFIX = '/_override/';
const OVERRIDE_END_PATH = `${OVERRIDE_PATH_PREFIX}end`;
const OVERRIDE_ORIGIN_PARAMETER = 'origin';

/** What both servers answer when they refuse to start an override (403; 404 for an unknown remote). */
const OVERRIDE_REFUSALS = {
  unknownRemote: 'No such remote to override.',
  off: 'Overrides are off on this site (OVERRIDE_ORIGINS=off).',
  crossSite: 'An override starts only from its URL opened in this browser, not from a link on another site.',
  origin: 'This site does not accept overrides from that origin (OVERRIDE_ORIGINS).',
};

/** What OVERRIDE_ORIGINS means when unset: a dev server on this machine, at any port. */
const LOOPBACK_ORIGINS = 'http://localhost:*,http://127.0.0.1:*,http://[::1]:*';

/** OVERRIDE_ORIGINS' value that turns overrides off. */
const OVERRIDES_OFF = 'off';

/**
 * One allowed origin: a scheme, a host and a port (`*`: any).
 * @typedef {{ protocol: 'http:' | 'https:', hostname: string, port: string }} OriginPattern
 */

/**
 * The dev server's live-reload connection: a WebSocket to the same host and port.
 * @param {string} origin
 */
const liveReloadOrigin = (origin) => origin.replace(/^http/, 'ws');

/**
 * The path that starts an override of `remote` from `origin`.
 * @param {string} remote
 * @param {string} origin
 */
const overridePath = (remote, origin) =>
  `${OVERRIDE_PATH_PREFIX}${remote}?${OVERRIDE_ORIGIN_PARAMETER}=${encodeURIComponent(origin)}`;

/**
 * `text` if it is an http(s) origin written as the servers write one (`http://localhost:3103`: lower case, no default
 * port, no path, not even `/`, no query, credentials or fragment), the way nginx's expressions read it too.
 * @param {string} text
 * @returns {string | undefined}
 */
function canonicalOrigin(text) {
  let url;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.port === '0') return undefined;
  return url.origin === text ? url.origin : undefined;
}

/**
 * OVERRIDE_ORIGINS: `off`, or origins separated by commas, each `http(s)://host[:port]` with `*` for any port.
 * Throws, naming the entry, when one is not.
 * @param {string} text
 * @returns {OriginPattern[]} none when overrides are off
 */
function parseOverrideOrigins(text) {
  if (text.trim() === OVERRIDES_OFF) return [];
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const anyPort = entry.endsWith(':*');
      const origin = canonicalOrigin((anyPort ? entry.slice(0, -2) : entry).replace(/\/$/, ''));
      if (!origin || (anyPort && new URL(origin).port !== '')) {
        throw new Error(`"${entry}" is not an http(s) origin (scheme://host[:port], port * for any), nor "off"`);
      }
      const url = new URL(origin);
      return {
        protocol: /** @type {'http:' | 'https:'} */ (url.protocol),
        hostname: url.hostname,
        port: anyPort ? '*' : url.port,
      };
    });
}

/**
 * Whether `origin` (canonical) is one the patterns allow.
 * @param {readonly OriginPattern[]} patterns
 * @param {string} origin
 */
function overrideAllowed(patterns, origin) {
  const url = new URL(origin);
  return patterns.some(
    (pattern) =>
      pattern.protocol === url.protocol &&
      pattern.hostname === url.hostname &&
      (pattern.port === '*' || pattern.port === url.port),
  );
}

/**
 * The remote and origin an override cookie's value names, if it is well-formed (whether the origin is allowed is for
 * the server to check against its OVERRIDE_ORIGINS, each request).
 * @param {string | undefined} value
 * @param {readonly string[]} remoteNames
 * @returns {{ remote: string, origin: string } | undefined}
 */
function parseOverride(value, remoteNames) {
  if (!value) return undefined;
  const at = value.indexOf('@');
  const remote = value.slice(0, at);
  const origin = canonicalOrigin(value.slice(at + 1));
  if (at < 1 || !remoteNames.includes(remote) || origin === undefined || origin !== value.slice(at + 1)) {
    return undefined;
  }
  return { remote, origin };
}

module.exports = {
  OVERRIDE_REFUSALS,
  OVERRIDE_COOKIE,
  OVERRIDE_NOTICE_COOKIE,
  OVERRIDE_MAX_AGE_SECONDS,
  OVERRIDE_PATH_PREFIX,
  OVERRIDE_END_PATH,
  OVERRIDE_ORIGIN_PARAMETER,
  LOOPBACK_ORIGINS,
  OVERRIDES_OFF,
  canonicalOrigin,
  liveReloadOrigin,
  overrideAllowed,
  overridePath,
  parseOverride,
  parseOverrideOrigins,
};
