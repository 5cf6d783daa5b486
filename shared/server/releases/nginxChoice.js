// Whom nginx says a /remotes.json request is for. nginx decides each request's releases itself (its maps: a preview,
// the visitor's side of each canary, an override; tools/nginx/releaseLocations.js) and its documents are composed
// with them; it passes /remotes.json to the collector beside it with that decision in these headers, and only these
// (no header of the visitor's gets through), so that the browser loads the releases its document was composed with.
// The collector is on loopback, nginx its one client; still, a value here is used only if it is well formed.
const { RELEASE_ID, RELEASE_PATH_PREFIX, releaseFolder } = require('@nativegtm/contract/releases');
const { PREVIEW_HEADERS } = require('./previews');

/** The headers, lower case as Node gives them (nginx matches names in any case). */
const CHOICE_HEADERS = {
  /** Non-empty when the request is a visitor's own: a preview, an override or a side of a canary. */
  personal: 'x-nativegtm-personal',
  /**
   * `releases/<id>/` when this remote's files come from that release for the request, else absent.
   * @param {string} remote
   */
  release: (remote) => `x-nativegtm-release-${remote.toLowerCase()}`,
  /** The remote a dev server overrides for this browser, and its origin; else absent. */
  overrideRemote: 'x-nativegtm-override-remote',
  overrideOrigin: 'x-nativegtm-override-origin',
};

/**
 * @param {import('node:http').IncomingHttpHeaders} headers
 * @param {string} name
 */
const single = (headers, name) => {
  const value = headers[name];
  return typeof value === 'string' ? value : undefined;
};

/**
 * An origin as URL prints it, else nothing.
 * @param {string | undefined} value
 */
function originOf(value) {
  if (value === undefined) return undefined;
  try {
    const { origin, protocol } = new URL(value);
    return origin === value && (protocol === 'http:' || protocol === 'https:') ? origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whom a /remotes.json request nginx passed on is for: undefined for everyone.
 * @param {import('node:http').IncomingHttpHeaders} headers
 * @param {readonly string[]} remoteNames
 * @returns {import('./vouchedRemotes').PersonalAnswer | undefined}
 */
function choiceFromHeaders(headers, remoteNames) {
  if (!single(headers, CHOICE_HEADERS.personal)) return undefined;
  const overrideRemote = single(headers, CHOICE_HEADERS.overrideRemote);
  const origin = originOf(single(headers, CHOICE_HEADERS.overrideOrigin));
  const override =
    overrideRemote !== undefined && remoteNames.includes(overrideRemote) && origin !== undefined
      ? { remote: overrideRemote, origin }
      : undefined;
  const chosen = remoteNames.flatMap((remote) => {
    const folder = single(headers, CHOICE_HEADERS.release(remote));
    const id = folder?.slice(RELEASE_PATH_PREFIX.length, -1);
    if (remote === override?.remote || id === undefined || !RELEASE_ID.test(id) || folder !== releaseFolder(id))
      return [];
    return [{ remote, id }];
  });
  return { chosen, override, headers: PREVIEW_HEADERS };
}

module.exports = { CHOICE_HEADERS, choiceFromHeaders };
