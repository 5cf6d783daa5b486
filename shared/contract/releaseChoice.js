// Which release of each remote a request is served, and whom its document is for: the one rule both servers apply
// (docs/releasing.md#who-sees-which-release). The built-in server calls these functions per request; nginx's
// generator evaluates them over every combination of its variables and writes the answers as maps, so the two
// cannot drift apart.
//
//   1. An override (a developer's dev server) takes its own remote; the others stay as below.
//   2. Else a preview (of a release in the store) takes its remote, and puts the browser in no canary: its other
//      remotes are live, so that what it shows is that release against live.
//   3. Else each remote whose canary has the visitor on its canary side serves the canary release.
//   4. Else live.

/** Where one remote's release comes from for a request. */
/** @typedef {'override' | 'preview' | 'canary' | 'live'} ReleaseSource */
/** A visitor's side of one remote's running canary, if on one. */
/** @typedef {'canary' | 'control' | undefined} Side */

/**
 * What a request brings that can change a remote's release: the remote its browser overrides, the remote it previews
 * a release of (one that is in the store), and its side of this remote's canary.
 * @typedef {{ override?: string, preview?: string, side?: Side }} Request
 */

/**
 * Where `remote`'s release comes from for this request.
 * @param {string} remote
 * @param {Request} request
 * @returns {ReleaseSource}
 */
function releaseSource(remote, { override, preview, side }) {
  if (override === remote) return 'override';
  if (preview !== undefined) return preview === remote ? 'preview' : 'live';
  return side === 'canary' ? 'canary' : 'live';
}

/**
 * Whether the request's sides count at all: a previewing browser is in no canary (nor its control group).
 * @param {{ preview?: string }} request
 */
const inCanaries = ({ preview }) => preview === undefined;

/**
 * Whom the document of `pageRemote`'s page is for, as its field-data token names it (@nativegtm/contract/fieldData
 * COHORT): an override, else a preview, else the visitor's side of the page's own remote's canary, else of the first
 * remote (in `remotes`' order) whose canary has the visitor on a side; undefined for a shared document.
 * @param {{ override?: string, preview?: string, sides: Partial<Record<string, Side>> }} request
 * @param {string | undefined} pageRemote
 * @param {readonly string[]} remotes every remote, in the site's order
 * @returns {string | undefined}
 */
function cohortOf({ override, preview, sides }, pageRemote, remotes) {
  if (override !== undefined) return 'override';
  if (preview !== undefined) return 'preview';
  const remote = [pageRemote, ...remotes].find((candidate) => candidate !== undefined && sides[candidate]);
  return remote === undefined ? undefined : `${sides[remote]}:${remote}`;
}

module.exports = { releaseSource, inCanaries, cohortOf };
