// What the deploy API (@nativegtm/deploy) and the release commands that speak to it (`--to <url>`) agree on: the
// actions a credential may be given, the API's paths, and the shape of a refusal. Plain data and pure functions.
//
// A credential reaches one remote and some of its actions. Reading a remote's releases needs any credential of that
// remote. Skipping the gate and previewing a release whose gate failed are actions of their own, so a pipeline that
// may promote need not be one that may promote unchecked.

/** Every action a credential may be given, as tokens and trust rules name them. */
const DEPLOY_ACTIONS = /** @type {const} */ ([
  'publish',
  'preview',
  'preview-failed',
  'promote',
  'skip-gate',
  'canary',
  'abort',
  'rollback',
  'prune',
]);

/** @typedef {typeof DEPLOY_ACTIONS[number]} DeployAction */

/**
 * @param {string} value
 * @returns {value is DeployAction}
 */
const isDeployAction = (value) => /** @type {readonly string[]} */ (DEPLOY_ACTIONS).includes(value);

/**
 * A list of actions as an operator writes it (`publish,preview`), checked: throws naming the first unknown one.
 * @param {string} text
 * @returns {DeployAction[]}
 */
function parseDeployActions(text) {
  const actions = text
    .split(',')
    .map((action) => action.trim())
    .filter(Boolean);
  if (actions.length === 0) throw new Error(`name at least one action (${DEPLOY_ACTIONS.join(', ')})`);
  for (const action of actions) {
    if (!isDeployAction(action)) throw new Error(`"${action}" is not an action (${DEPLOY_ACTIONS.join(', ')})`);
  }
  return [...new Set(/** @type {DeployAction[]} */ (actions))];
}

/** The port the deploy API listens on by default (loopback: the operator's TLS proxy is in front). */
const DEFAULT_DEPLOY_API_PORT = 3900;

/** The API's paths; `remote` and `id` are checked by the API, not trusted. */
const deployPaths = {
  /** GET: the releases and the audit; POST: publish (the body is the build as a .tar.gz). */
  releases: (/** @type {string} */ remote) => `/v1/remotes/${remote}/releases`,
  promote: (/** @type {string} */ remote, /** @type {string} */ id) => `/v1/remotes/${remote}/releases/${id}/promote`,
  preview: (/** @type {string} */ remote, /** @type {string} */ id) => `/v1/remotes/${remote}/releases/${id}/preview`,
  rollback: (/** @type {string} */ remote) => `/v1/remotes/${remote}/rollback`,
  prune: (/** @type {string} */ remote) => `/v1/remotes/${remote}/prune`,
  /** GET: its status's lines; POST: gate a release and start its canary, which the API drives; DELETE: abort it. */
  canary: (/** @type {string} */ remote) => `/v1/remotes/${remote}/canary`,
  /** POST: take over the canary of a command that died, and drive it. */
  canaryResume: (/** @type {string} */ remote) => `/v1/remotes/${remote}/canary/resume`,
  /** GET: the canary the API drives: its lines from the `from`th on, and how it ended (a command following it). */
  canaryRun: (/** @type {string} */ remote, /** @type {number} */ from) =>
    `/v1/remotes/${remote}/canary/run?from=${from}`,
};

/**
 * The canary the API drives for a remote, as a command following it reads it: the lines of its steps from the one
 * asked for (`next`: where the next read starts), then how it ended, or the one line of why the API stopped driving it.
 * `epoch`: the canary's lease epoch when this run took it; a run that carries the canary on after an API restart has a
 * higher one, and its lines start again from the first.
 * @typedef {{ id: string, epoch: number, lines: string[], next: number, ended?: CanaryEnd, problem?: string }} CanaryRun
 * @typedef {{ id: string, outcome: 'promoted' | 'rolled back' | 'no verdict' | 'aborted', reason: string,
 *   verdicts: { share: number }[] }} CanaryEnd
 *   what the command says of a canary's end (the store records more)
 */

/** The header that names a published archive's sha256 (64 hex digits), which the API checks. */
const ARCHIVE_SHA256_HEADER = 'x-archive-sha256';
/** The header a publish names its commit in, when its credential does not (a token's; an OIDC token's `sha` wins). */
const SOURCE_COMMIT_HEADER = 'x-source-commit';

/**
 * Whether a URL a credential goes to, or trust comes from (the deploy API, an OIDC issuer, its keys), is safe to use:
 * https, or plain http to this machine only (a test's, or a tunnel's end). Nothing else crosses a network in the clear.
 * @param {URL} url
 */
const isSecureOrLoopback = (url) =>
  url.protocol === 'https:' || (url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname));

/**
 * A refusal as the API answers it: the one line the command prints (`error: …`) and exits 1 on; or, with `undecided`
 * (503), the line of a gate that could not judge the release, which the command exits 3 on: nothing was recorded or
 * changed, and the same request later may decide.
 * @typedef {{ error: string, undecided?: true }} DeployRefusal
 */

module.exports = {
  DEPLOY_ACTIONS,
  isDeployAction,
  parseDeployActions,
  DEFAULT_DEPLOY_API_PORT,
  deployPaths,
  ARCHIVE_SHA256_HEADER,
  SOURCE_COMMIT_HEADER,
  isSecureOrLoopback,
};
