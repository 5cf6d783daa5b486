// Overrides on the shell's server (@nativegtm/contract/overrides): `/_override/<remote>?origin=<origin>` sets a cookie
// in that browser only, for an origin OVERRIDE_ORIGINS allows, and from then on its documents are composed without
// that remote's HTML (the server never fetches from the override's origin, which a cookie would otherwise let anyone
// point at the server's own loopback services), its /remotes.json points the shell at the dev server, and its
// documents' policy allows that dev server. Everything it is served is personal and never indexed, as a preview's.
const {
  OVERRIDE_COOKIE,
  OVERRIDE_END_PATH,
  OVERRIDE_MAX_AGE_SECONDS,
  OVERRIDE_NOTICE_COOKIE,
  OVERRIDE_ORIGIN_PARAMETER,
  OVERRIDE_PATH_PREFIX,
  OVERRIDE_REFUSALS,
  LOOPBACK_ORIGINS,
  canonicalOrigin,
  overrideAllowed,
  parseOverride,
  parseOverrideOrigins,
} = require('@nativegtm/contract/overrides');
const { fromTheSite } = require('@nativegtm/contract/fetchSites');
const { PREVIEW_HEADERS } = require('./previews');
const { cookiePair, redirect, refuse } = require('./personalCookies');

/** @typedef {{ remote: string, origin: string }} Override */
/** @typedef {import('@nativegtm/contract/overrides').OriginPattern} OriginPattern */
/** @typedef {import('node:http').IncomingMessage} IncomingMessage */
/** @typedef {import('node:http').ServerResponse} ServerResponse */

/** Private and never indexed, as a preview's. */
const OVERRIDE_HEADERS = PREVIEW_HEADERS;

/** OVERRIDE_ORIGINS when unset. */
const DEFAULT_OVERRIDE_ORIGINS = parseOverrideOrigins(LOOPBACK_ORIGINS);

/**
 * @param {{ routes: { route: string, remote: string }[], origins?: readonly OriginPattern[], secure: boolean }} options
 *   routes: which page each remote renders (an override starts on it); origins: OVERRIDE_ORIGINS (none: off); secure:
 *   the site is served over https (the cookies are then Secure)
 */
function createOverrides({ routes, origins = DEFAULT_OVERRIDE_ORIGINS, secure }) {
  const remoteNames = routes.map((route) => route.remote);

  /**
   * The override this request's browser asked for, if its cookie names an origin allowed now (a cookie set before
   * OVERRIDE_ORIGINS changed counts for nothing).
   * @param {Record<string, string | undefined>} cookies the request's, parsed
   * @returns {Override | undefined}
   */
  function of(cookies) {
    const override = parseOverride(cookies[OVERRIDE_COOKIE], remoteNames);
    return override && overrideAllowed(origins, override.origin) ? override : undefined;
  }

  /**
   * `/_override/<remote>?origin=<origin>` starts an override and opens the remote's page; `/_override/end` ends it.
   * @param {IncomingMessage} req
   * @param {ServerResponse} res
   * @param {string} pathname
   * @param {URLSearchParams} query
   */
  function handle(req, res, pathname, query) {
    for (const [name, value] of Object.entries(OVERRIDE_HEADERS)) res.setHeader(name, value);
    if (pathname === OVERRIDE_END_PATH) {
      res.setHeader('Set-Cookie', overrideCookies('', 0, secure));
      return redirect(res, '/');
    }
    const remote = pathname.slice(OVERRIDE_PATH_PREFIX.length);
    const route = routes.find((candidate) => candidate.remote === remote)?.route;
    if (!route) return refuse(res, 404, OVERRIDE_REFUSALS.unknownRemote);
    if (origins.length === 0) return refuse(res, 403, OVERRIDE_REFUSALS.off);
    // Another site's link could otherwise switch a visitor's browser to scripts from a port of their own machine.
    if (!fromTheSite(req.headers['sec-fetch-site'])) return refuse(res, 403, OVERRIDE_REFUSALS.crossSite);
    const origin = canonicalOrigin(query.get(OVERRIDE_ORIGIN_PARAMETER) ?? '');
    if (!origin || !overrideAllowed(origins, origin)) return refuse(res, 403, OVERRIDE_REFUSALS.origin);
    res.setHeader('Set-Cookie', overrideCookies(`${remote}@${origin}`, OVERRIDE_MAX_AGE_SECONDS, secure));
    return redirect(res, route);
  }

  return { of, handle };
}

/**
 * The override cookie (HttpOnly: what the server reads) and its notice for the page, set or cleared.
 * @param {string} value `<remote>@<origin>`, empty to clear
 * @param {number} maxAge seconds, 0 to clear
 * @param {boolean} secure
 */
const overrideCookies = (value, maxAge, secure) =>
  cookiePair({ server: OVERRIDE_COOKIE, notice: OVERRIDE_NOTICE_COOKIE }, value, maxAge, secure);

/**
 * remotes.json's entries as an overriding browser gets them: the override's remote loaded from the dev server.
 * @param {Partial<Record<string, string>>} entries
 * @param {Override | undefined} override
 */
const overriddenEntries = (entries, override) =>
  override ? { ...entries, [override.remote]: `${override.origin}/mf-manifest.json` } : entries;

module.exports = {
  createOverrides,
  overrideCookies,
  overriddenEntries,
  OVERRIDE_HEADERS,
  DEFAULT_OVERRIDE_ORIGINS,
};
