// Security headers shared by the built-in server and the nginx configuration, so both send exactly the same policy.
const { CSP_ENDPOINT_NAME, REPORTS_PATH } = require('@nativegtm/contract/reports');
const { devServerPolicies, trustedTypesDirectives } = require('@nativegtm/contract/trustedTypes');
const { liveReloadOrigin } = require('@nativegtm/contract/overrides');

/** Features the site never uses, switched off for the page and anything it embeds. */
const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=()',
  'camera=()',
  'display-capture=()',
  'encrypted-media=()',
  'geolocation=()',
  'gyroscope=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'usb=()',
  'xr-spatial-tracking=()',
].join(', ');

/** Sent with every response. */
const COMMON_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
};

/**
 * The origins of remotes.json's valid entries (@nativegtm/contract/remotesConfig: the shell's own validation), so
 * the policy never allows more than the shell would load.
 * @param {Partial<Record<string, string>>} entries
 * @returns {string[]}
 */
function remoteOrigins(entries) {
  return [...new Set(Object.values(entries).map((url) => new URL(/** @type {string} */ (url)).origin))].sort();
}

/**
 * The headers of the shell's HTML responses for remotes.json's entries as they are now: made once per version of the
 * file (its reader, remotesFile.js, gives the same object until the file changes), not per response.
 * @type {WeakMap<object, Record<string, string>>}
 */
const headersByRemotes = new WeakMap();
const NO_REMOTES = {};

/** @param {Partial<Record<string, string>> | undefined} entries remotes.json's valid entries; none while unreadable */
function htmlHeadersFor(entries = NO_REMOTES) {
  let headers = headersByRemotes.get(entries);
  if (!headers) {
    headers = htmlHeaders(remoteOrigins(entries));
    headersByRemotes.set(entries, headers);
  }
  return headers;
}

/**
 * No 'unsafe-inline' or 'unsafe-eval' anywhere: the build emits no inline script and CSS only as files. Scripts,
 * styles and fetches may come from this origin and the remotes' origins, nothing else. Violations are reported to the
 * site's own origin: `report-to` for browsers with the Reporting API, `report-uri` for the others (a browser that
 * knows report-to ignores report-uri).
 */
/**
 * @param {string[]} [origins]
 * @param {{ sources?: string[], connect?: string[], policies?: string[] }} [more] what an override's dev server needs
 *   on top, after everything else (see overrideHtmlHeaders): its origin, its live-reload socket, its policies
 */
function contentSecurityPolicy(origins = [], { sources: extra = [], connect = [], policies = [] } = {}) {
  const sources = ["'self'", ...origins, ...extra].join(' ');
  return [
    "default-src 'self'",
    `script-src ${sources}`,
    `style-src ${sources}`,
    `connect-src ${[sources, ...connect].join(' ')}`,
    "img-src 'self' data:",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    // Script URLs only through the site's own named policies (@nativegtm/contract/trustedTypes).
    ...trustedTypesDirectives(policies),
    `report-uri ${REPORTS_PATH}`,
    `report-to ${CSP_ENDPOINT_NAME}`,
  ].join('; ');
}

/**
 * The headers of a document for a browser that overrides a remote with a dev server (@nativegtm/contract/overrides):
 * the policy allows, on top of everyone's, that origin, its live-reload connection and its overlay's Trusted Types
 * policy (added at the ends, as nginx adds them through variables that are empty for everyone else). Only ever sent
 * with that browser's private documents.
 * @param {Partial<Record<string, string>>} entries remotes.json's valid entries
 * @param {{ origin: string }} override
 */
function overrideHtmlHeaders(entries, override) {
  return htmlHeaders(remoteOrigins(entries), {
    sources: [override.origin],
    connect: [liveReloadOrigin(override.origin)],
    policies: Object.values(devServerPolicies),
  });
}

/**
 * The headers of an HTML document of the site.
 * @param {string[]} origins
 * @param {Parameters<typeof contentSecurityPolicy>[1]} [more]
 */
function htmlHeaders(origins, more) {
  return {
    'Content-Security-Policy': contentSecurityPolicy(origins, more),
    'Permissions-Policy': PERMISSIONS_POLICY,
    'Reporting-Endpoints': `${CSP_ENDPOINT_NAME}="${REPORTS_PATH}"`,
  };
}

module.exports = {
  COMMON_HEADERS,
  PERMISSIONS_POLICY,
  contentSecurityPolicy,
  htmlHeaders,
  htmlHeadersFor,
  overrideHtmlHeaders,
  remoteOrigins,
};
