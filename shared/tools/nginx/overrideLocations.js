// Overrides in nginx (@nativegtm/contract/overrides), as the built-in server has them (releases/overrides.js): the
// shell's server starts one for an origin OVERRIDE_ORIGINS allows (decided when the configuration is generated, as
// regular expressions), and for that browser its documents skip the remote's includes (nginx never fetches from a dev
// server), its /remotes.json names the dev server's manifest, and its documents' policy allows the dev server. A
// cookie naming any other origin is read as no cookie at all.
const {
  OVERRIDE_REFUSALS,
  OVERRIDE_COOKIE,
  OVERRIDE_END_PATH,
  OVERRIDE_MAX_AGE_SECONDS,
  OVERRIDE_ORIGIN_PARAMETER,
  OVERRIDE_PATH_PREFIX,
} = require('@nativegtm/contract/overrides');
const { OWN_FETCH_SITES } = require('@nativegtm/contract/fetchSites');
const { devServerPolicies } = require('@nativegtm/contract/trustedTypes');
const { overrideCookies } = require('@nativegtm/server/releases/overrides');
const { htmlHeaders } = require('@nativegtm/server/securityHeaders');
const { block } = require('./indent');
const { headerLines, quote } = require('./syntax');

/** @typedef {import('@nativegtm/contract/overrides').OriginPattern} OriginPattern */
/** @typedef {Record<string, string>} Headers */

/** The remote the visitor's browser overrides (a well-formed cookie naming an allowed origin), else empty. */
const OVERRIDE_REMOTE_VARIABLE = '$nativegtm_override_remote';
/** That override's origin, else empty. */
const OVERRIDE_ORIGIN_VARIABLE = '$nativegtm_override_origin';
/** The origin a start request asks for, decoded, if it is allowed; else empty. */
const ASKED_ORIGIN_VARIABLE = '$nativegtm_override_asked';
/**
 * Non-empty when a request is the site's own (@nativegtm/contract/fetchSites): an override's start, a preview's
 * confirmation (releaseLocations.js).
 */
const FROM_THE_SITE_VARIABLE = '$nativegtm_from_the_site';
/** The internal locations that refuse a start: an origin not allowed, and a start from another site. */
const REFUSED_LOCATION = '/_nativegtm_override_refused';
const CROSS_SITE_LOCATION = '/_nativegtm_override_cross_site';

/** What the documents' policy gains for an overriding browser, each with its separating space (empty otherwise). */
const POLICY_ADDITIONS = {
  sources: 'nativegtm_override_src',
  connect: 'nativegtm_override_ws',
  policies: 'nativegtm_override_tt',
};

/** A port from 1 to 65535, as a URL writes it (no leading zero). */
const PORT = '(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])';
/**
 * Any port but the scheme's own, which an origin leaves out (`http://localhost`, never `http://localhost:80`). Only
 * ever at the end of what is matched.
 * @param {'http:' | 'https:'} protocol
 */
const otherPort = (protocol) => `(?!${protocol === 'http:' ? 80 : 443}$)${PORT}`;
/** @param {string} text */
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/**
 * A host as encodeURIComponent may have written it in a query: `[`, `]` and `:` either way.
 * @param {string} hostname
 */
const encodedHost = (hostname) =>
  [...hostname]
    .map((char) => ({ '[': '(?:\\[|%5[Bb])', ']': '(?:\\]|%5[Dd])', ':': '(?::|%3[Aa])' })[char] ?? escapeRegExp(char))
    .join('');
const ENCODED_COLON = '(?::|%3[Aa])';
const ENCODED_SLASHES = '(?:/|%2[Ff])(?:/|%2[Ff])';

/**
 * The allowed origins as one regular expression over a cookie's origin (written as the servers write it).
 * @param {readonly OriginPattern[]} patterns
 */
function originPattern(patterns) {
  const each = patterns.map(({ protocol, hostname, port }) => {
    const ported = port === '*' ? `(?::${otherPort(protocol)})?` : port === '' ? '' : `:${port}`;
    return `${protocol}//${escapeRegExp(hostname)}${ported}`;
  });
  return `(?:${each.join('|')})`;
}

/**
 * The http-level maps: the cookie's remote and origin, what the documents' policy gains, the start request's origin,
 * and the page a start opens.
 * @param {{ remote: string, route: string, base: URL }[]} plans
 * @param {readonly OriginPattern[]} patterns OVERRIDE_ORIGINS (none: off)
 */
function overrideMaps(plans, patterns) {
  const names = plans.map((plan) => plan.remote).join('|');
  const cookie = `$cookie_${OVERRIDE_COOKIE}`;
  const allowed = patterns.length > 0;
  /** Lines of the start request's map: each allowed origin as a browser may encode it, decoded. */
  const asked = patterns.flatMap(({ protocol, hostname, port }) => {
    const scheme = `^${protocol.slice(0, -1)}${ENCODED_COLON}${ENCODED_SLASHES}${encodedHost(hostname)}`;
    const origin = `${protocol}//${hostname}`;
    if (port === '*') {
      return [
        `${quote(`~${scheme}${ENCODED_COLON}(?<ngtmoverrideport>${otherPort(protocol)})$`)} ${quote(`${origin}:$ngtmoverrideport`)};`,
        `${quote(`~${scheme}$`)} ${quote(origin)};`,
      ];
    }
    return [
      `${quote(`~${scheme}${port ? `${ENCODED_COLON}${port}` : ''}$`)} ${quote(port ? `${origin}:${port}` : origin)};`,
    ];
  });
  return [
    `# Overrides (${allowed ? 'OVERRIDE_ORIGINS' : 'off: OVERRIDE_ORIGINS=off'}): the cookie counts only for an allowed origin.`,
    block(`map ${cookie} ${OVERRIDE_REMOTE_VARIABLE}`, [
      allowed && `${quote(`~^(?<ngtmoverride>${names})@${originPattern(patterns)}$`)} $ngtmoverride;`,
      'default "";',
    ]),
    block(`map ${cookie} ${OVERRIDE_ORIGIN_VARIABLE}`, [
      allowed && `${quote(`~^(?:${names})@(?<ngtmoverrideorigin>${originPattern(patterns)})$`)} $ngtmoverrideorigin;`,
      'default "";',
    ]),
    block(`map ${OVERRIDE_ORIGIN_VARIABLE} $${POLICY_ADDITIONS.sources}`, [
      '"" "";',
      `default " ${OVERRIDE_ORIGIN_VARIABLE}";`,
    ]),
    block(`map ${OVERRIDE_ORIGIN_VARIABLE} $${POLICY_ADDITIONS.connect}`, [
      '"~^http(?<ngtmoverridews>s?://.+)$" " ws$ngtmoverridews";',
      'default "";',
    ]),
    block(`map ${OVERRIDE_ORIGIN_VARIABLE} $${POLICY_ADDITIONS.policies}`, [
      '"" "";',
      `default " ${Object.values(devServerPolicies).join(' ')}";`,
    ]),
    block(`map $arg_${OVERRIDE_ORIGIN_PARAMETER} ${ASKED_ORIGIN_VARIABLE}`, [...asked, 'default "";']),
    block(`map $http_sec_fetch_site ${FROM_THE_SITE_VARIABLE}`, [
      '"" 1;',
      ...OWN_FETCH_SITES.map((site) => `${site} 1;`),
      'default "";',
    ]),
    block('map $nativegtm_override_start $nativegtm_override_route', [
      'default /;',
      ...plans.map((plan) => `${plan.remote} ${quote(plan.route)};`),
    ]),
  ].join('\n');
}

/**
 * The shell's locations that start and end an override.
 * @param {{ plans: { remote: string }[], patterns: readonly OriginPattern[], secure: boolean, personal: Headers }}
 *   options personal: the headers of a private, unindexed answer
 */
function overrideLocations({ plans, patterns, secure, personal }) {
  /** @param {string} value @param {number} maxAge */
  const setCookies = (value, maxAge) =>
    overrideCookies(value, maxAge, secure)
      .map((line) => `add_header Set-Cookie ${quote(line)} always;`)
      .join('\n');
  const names = plans.map((plan) => plan.remote).join('|');
  /** @param {number} status @param {string} text */
  const answer = (status, text) => [
    'default_type text/plain;',
    headerLines(personal),
    `return ${status} "${text}\\n";`,
  ];
  /** @param {string} location @param {string} text */
  const refusal = (location, text) => block(`location = ${location}`, ['internal;', ...answer(403, text)]);
  const start = `location ~ ${quote(`^${OVERRIDE_PATH_PREFIX}(?<nativegtm_override_start>${names})$`)}`;
  return [
    '# Overrides (a dev server in one browser): started only from its URL opened in the browser, for an allowed',
    '# origin, and ended. A refusal is answered elsewhere: an answer from inside `if` would carry the cookies.',
    patterns.length === 0
      ? block(start, answer(403, OVERRIDE_REFUSALS.off))
      : block(start, [
          headerLines(personal),
          block(`if (${FROM_THE_SITE_VARIABLE} = "")`, [`rewrite ^ ${CROSS_SITE_LOCATION} last;`]),
          block(`if (${ASKED_ORIGIN_VARIABLE} = "")`, [`rewrite ^ ${REFUSED_LOCATION} last;`]),
          setCookies(`$nativegtm_override_start@${ASKED_ORIGIN_VARIABLE}`, OVERRIDE_MAX_AGE_SECONDS),
          'return 303 $nativegtm_override_route;',
        ]),
    refusal(CROSS_SITE_LOCATION, OVERRIDE_REFUSALS.crossSite),
    refusal(REFUSED_LOCATION, OVERRIDE_REFUSALS.origin),
    block(`location = ${OVERRIDE_END_PATH}`, [headerLines(personal), setCookies('', 0), 'return 303 /;']),
    block(`location ${OVERRIDE_PATH_PREFIX}`, answer(404, OVERRIDE_REFUSALS.unknownRemote)),
  ].join('\n');
}

/**
 * The shell documents' headers, whose policy an override widens through the maps' variables: for everyone else they
 * are empty, and the policy is exactly the built-in server's.
 * @param {string[]} origins the remotes' origins
 */
function overridableHtmlHeaders(origins) {
  const marker = (/** @type {string} */ name) => `\u0000${name}`;
  const headers = htmlHeaders(origins, {
    sources: [marker(POLICY_ADDITIONS.sources)],
    connect: [marker(POLICY_ADDITIONS.connect)],
    policies: [marker(POLICY_ADDITIONS.policies)],
  });
  let policy = headers['Content-Security-Policy'];
  for (const name of Object.values(POLICY_ADDITIONS)) {
    // The variable carries its own leading space, so an empty one leaves the policy as it is.
    policy = policy.replaceAll(` ${marker(name)}`, `\${${name}}`);
  }
  return { ...headers, 'Content-Security-Policy': policy };
}

/**
 * The include locations' line for a remote: an override's page renders in the browser, nothing is fetched.
 * @param {string} remote
 */
const skipWhenOverridden = (remote) => block(`if (${OVERRIDE_REMOTE_VARIABLE} = ${remote})`, ['return 204;']);

module.exports = {
  FROM_THE_SITE_VARIABLE,
  OVERRIDE_ORIGIN_VARIABLE,
  OVERRIDE_REMOTE_VARIABLE,
  overrideLocations,
  overrideMaps,
  overridableHtmlHeaders,
  skipWhenOverridden,
};
