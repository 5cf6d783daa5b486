// Releases of a page remote, as the browser-facing servers and the release commands agree on them: how a release is
// named, the URL path its files are served under by the remote's server, and the preview cookie that shows one
// release to one browser. (The store on disk is the servers' business: @nativegtm/server/releases.)

/** A release's id: the first 16 hex digits of the SHA-256 of its files (names and contents). */
const RELEASE_ID = /^[0-9a-f]{16}$/;

/** Where a remote's server serves one release's files, whatever is live: `<remote base>/releases/<id>/`. */
const RELEASE_PATH_PREFIX = 'releases/';

/** The cookie that shows one browser a release of one remote in place of the live one: `<remote>.<id>`. */
const PREVIEW_COOKIE = 'nativegtm_preview';

/**
 * Its companion the page may read (the preview cookie is HttpOnly): the same `<remote>.<id>`, only to show the visitor
 * that what they see is a preview and how to end it. Servers never read it.
 */
const PREVIEW_NOTICE_COOKIE = 'nativegtm_preview_notice';

/** How long a preview lasts in a browser that does not end it. */
const PREVIEW_MAX_AGE_SECONDS = 3600;

/** The shell path that starts a preview (`/_preview/<remote>/<id>`) or ends it (`/_preview/end`). */
const PREVIEW_PATH_PREFIX = '/_preview/';
const PREVIEW_END_PATH = `${PREVIEW_PATH_PREFIX}end`;

/**
 * The mark a link to a preview of a release whose gate failed must carry (`npm run preview -- … --allow-failed`): 32
 * hex digits, random, which the command writes into the store for both servers to find.
 */
const PREVIEW_MARK = /^[0-9a-f]{32}$/;

/**
 * What the notice cookie's value ends with when the release previewed failed its gate.
 */
const PREVIEW_FAILED_SUFFIX = '.failed';

/**
 * @param {string} remote
 * @param {string} id
 * @param {string} [mark] for a release whose gate failed
 */
const previewPath = (remote, id, mark) => `${PREVIEW_PATH_PREFIX}${remote}/${id}${mark ? `/${mark}` : ''}`;

/**
 * The folder of a release's files, relative to the folder of the remote's mf-manifest.json.
 * @param {string} id
 */
const releaseFolder = (id) => `${RELEASE_PATH_PREFIX}${id}/`;

/**
 * The remote and release a preview cookie's value names, if it is well-formed (whether the release exists is for the
 * server to check against its store).
 * @param {string | undefined} value
 * @param {readonly string[]} remoteNames
 * @returns {{ remote: string, id: string } | undefined}
 */
function parsePreview(value, remoteNames) {
  if (!value) return undefined;
  const dot = value.indexOf('.');
  const remote = value.slice(0, dot);
  const id = value.slice(dot + 1);
  if (dot < 1 || !remoteNames.includes(remote) || !RELEASE_ID.test(id)) return undefined;
  return { remote, id };
}

/**
 * What the notice cookie says: the release previewed, and whether its gate failed.
 * @param {string | undefined} value
 * @param {readonly string[]} remoteNames
 * @returns {{ remote: string, id: string, failed: boolean } | undefined}
 */
function parsePreviewNotice(value, remoteNames) {
  const failed = value?.endsWith(PREVIEW_FAILED_SUFFIX) ?? false;
  const preview = parsePreview(failed ? value?.slice(0, -PREVIEW_FAILED_SUFFIX.length) : value, remoteNames);
  return preview && { ...preview, failed };
}

module.exports = {
  RELEASE_ID,
  PREVIEW_MARK,
  PREVIEW_FAILED_SUFFIX,
  RELEASE_PATH_PREFIX,
  PREVIEW_COOKIE,
  PREVIEW_NOTICE_COOKIE,
  PREVIEW_MAX_AGE_SECONDS,
  PREVIEW_PATH_PREFIX,
  PREVIEW_END_PATH,
  previewPath,
  releaseFolder,
  parsePreview,
  parsePreviewNotice,
};
