// A remote's releases through the deploy API (`--to <url>`), as the release commands use the store: the same methods,
// so that a command prints and exits as it does where the store is. A build is sent as the .tar.gz
// @nativegtm/store/releaseArchive packs, named by its sha256; the gate runs on the API's side and its result comes
// back. Every refusal is the API's one line, which the command prints and exits 1 on (3 for a gate that could not
// judge, as where the store is).
const { createHash } = require('node:crypto');
const {
  ARCHIVE_SHA256_HEADER,
  SOURCE_COMMIT_HEADER,
  deployPaths,
  isSecureOrLoopback,
} = require('@nativegtm/contract/deployApi');
const { Undecided, UsageError } = require('@nativegtm/server/commandLine');
const { packRelease } = require('@nativegtm/store/releaseArchive');
const { StoreRefusal } = require('@nativegtm/store/storeRefusal');
const { deployCredential } = require('./deployCredential');

/** @typedef {import('@nativegtm/store/remoteStore').RemoteStore} RemoteStore */
/**
 * What the release commands but the canary's use of a remote's store; the store itself, or the deploy API.
 * @typedef {Pick<RemoteStore, 'remote' | 'where' | 'publish' | 'promote' | 'rollback' | 'prune' | 'releases' |
 *   'changes' | 'audit' | 'preview' | 'canary' | 'endedCanaries'>} ReleaseStore
 */

/** A refusal of the deploy API (its HTTP status), or of reaching it (no status). */
class DeployRefusal extends StoreRefusal {
  /**
   * @param {string} message
   * @param {number} [status]
   */
  constructor(message, status) {
    super(message);
    this.name = 'DeployRefusal';
    this.status = status;
  }
}

/**
 * The deploy API's URL from `--to`: https, or http to this machine only (a credential never crosses a network in
 * the clear).
 * @param {string} text
 */
function deployApiUrl(text) {
  let url;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--to must be the deploy API's URL, like https://deploy.example, not "${text}"`);
  }
  if (!isSecureOrLoopback(url)) {
    throw new UsageError(`--to must be an https:// URL (http only to this machine), not "${text}"`);
  }
  return url;
}

/**
 * Requests to the deploy API at `to`, with the pipeline's credential (asked for once, at the first request); each
 * resolves to the API's JSON answer, or rejects with the API's one-line refusal.
 * @param {string} to the API's URL, as --to gives it
 * @param {NodeJS.ProcessEnv} env
 */
function deployCaller(to, env) {
  const api = deployApiUrl(to);
  /** @type {Promise<string> | undefined} */
  let credential;
  /**
   * @param {string} method
   * @param {string} pathname with its query, if any
   * @param {{ body?: Uint8Array<ArrayBuffer> | string, headers?: Record<string, string> }} [request]
   * @returns {Promise<any>}
   */
  async function call(method, pathname, { body, headers = {} } = {}) {
    credential ??= deployCredential(api, env).then((given) => given.credential);
    const url = new URL(pathname, api);
    let response;
    try {
      response = await fetch(url, {
        method,
        headers: { authorization: `Bearer ${await credential}`, ...headers },
        body,
      });
    } catch (error) {
      // fetch says "fetch failed"; why is its cause's (ECONNREFUSED, a bad port, a certificate refused).
      const { cause } = /** @type {{ cause?: { code?: string, message?: string } }} */ (error);
      const why = cause?.code ?? cause?.message ?? /** @type {Error} */ (error).message;
      throw new DeployRefusal(`the deploy API at ${api.origin} cannot be reached (${why}); nothing was changed`);
    }
    /** @type {any} */
    const answer = await response.json().catch(() => undefined);
    if (!response.ok) {
      if (answer?.undecided === true && typeof answer.error === 'string') throw new Undecided(answer.error);
      throw new DeployRefusal(
        typeof answer?.error === 'string' ? answer.error : `the deploy API answered HTTP ${response.status}`,
        response.status,
      );
    }
    return answer;
  }
  return { api, call };
}

/**
 * A request's JSON body.
 * @param {unknown} value
 */
const json = (value) => ({ body: JSON.stringify(value), headers: { 'content-type': 'application/json' } });

/**
 * @param {string} remote
 * @param {string} to the API's URL, as --to gives it
 * @param {{ env?: NodeJS.ProcessEnv }} [options]
 * @returns {ReleaseStore}
 */
function deployClient(remote, to, { env = process.env } = {}) {
  const { api, call } = deployCaller(to, env);
  /** One listing per command: it asks for everything at once. */
  let listing;
  const listed = () => (listing ??= call('GET', deployPaths.releases(remote)));
  return {
    remote,
    where: `${api.origin} (the deploy API)`,
    publish: async (buildDir, source) => {
      const archive = await packRelease(buildDir);
      const headers = {
        [ARCHIVE_SHA256_HEADER]: createHash('sha256').update(archive).digest('hex'),
        'content-type': 'application/gzip',
        // A commit with changes not committed is not that commit's build: the API records none then.
        ...(source.commit && !source.dirty ? { [SOURCE_COMMIT_HEADER]: source.commit } : {}),
      };
      // A copy in an ArrayBuffer of its own: what fetch takes as a body.
      const body = new Uint8Array(archive);
      const { id, existed } = await call('POST', deployPaths.releases(remote), { body, headers });
      return { id, existed };
    },
    promote: (id, { gate }) => call('POST', deployPaths.promote(remote, id), json({ skipGate: gate === null })),
    preview: (id, { allowFailed }) => call('POST', deployPaths.preview(remote, id), json({ allowFailed })),
    rollback: () => call('POST', deployPaths.rollback(remote)),
    prune: ({ keep }) => call('POST', deployPaths.prune(remote), json({ keep })),
    releases: async () => {
      const { releases, problem } = await listed();
      return { releases, problem };
    },
    changes: async () => (await listed()).changes,
    audit: async () => (await listed()).audit,
    canary: async () => (await listed()).canary,
    endedCanaries: async () => (await listed()).endedCanaries,
  };
}

module.exports = { DeployRefusal, deployClient, deployCaller, json };
