// The deploy API's requests (@nativegtm/contract/deployApi): what the release commands do, over HTTP, for a credential
// that reaches one remote and some of its actions. Each request is checked in this order, and the first refusal is
// the answer, with nothing changed:
//
//   1. the path names an action and a remote that exist (404)
//   2. its credential is one this API made or trusts, unexpired and not revoked (401; 429 once the client's network
//      sent too many wrong ones this minute, while a right one is still taken: failureLimit.js)
//   3. that credential may do this action on this remote (403)
//   4. the request itself: its body, its release (400, 404, 409, 413), then the store's own refusal
//
// A gate that could not judge the release (a promote's, a canary's) is no refusal of it: 503, nothing recorded, and
// the client exits 3 as the command does where the store is (@nativegtm/contract/deployApi).
//
// Every answer is JSON: what the command prints, or `{ error }` with the one line the command prints on a refusal,
// with no path of the server's in it (serverPaths.js). The store's changes are made as the credential's actor, with
// the request's address: the audit names both.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { isRemoteName } = require('@nativegtm/contract/remotes');
const { RELEASE_ID } = require('@nativegtm/contract/releases');
const { ARCHIVE_SHA256_HEADER, SOURCE_COMMIT_HEADER } = require('@nativegtm/contract/deployApi');
const { clientAddress, networkOf } = require('@nativegtm/server/fieldData/clientNetwork');
const { ArchiveRefusal, printable, unpackRelease } = require('@nativegtm/store/releaseArchive');
const { DEFAULT_KEEP, ReleaseError } = require('@nativegtm/store/operations');
const { StoreConflict, StoreRefusal, StoreUnavailable } = require('@nativegtm/store/storeRefusal');
const { StoreBusyError } = require('@nativegtm/store/storeLock');
const { Refusal, Undecided, UsageError } = require('@nativegtm/server/commandLine');
const { canaryOptionTexts, canaryPlan } = require('@nativegtm/tools/canary/options');
const { canaryStatusLines } = require('@nativegtm/tools/canary/status');
const { ApiRefusal } = require('./apiRefusal');
const { bearerOf, tokenPrincipal } = require('./credentials');
const { failureLimit } = require('./failureLimit');
const { looksLikeJwt } = require('./oidc');
const { readBody } = require('./requestBody');

/** @typedef {import('@nativegtm/contract/deployApi').DeployAction} DeployAction */
/** @typedef {import('@nativegtm/store/remoteStore').RemoteStore} RemoteStore */
/** @typedef {import('@nativegtm/store/actor').Actor} Actor */
/** @typedef {import('./credentials').Principal} Principal */
/** @typedef {import('node:http').IncomingMessage} Request */
/** @typedef {import('node:http').ServerResponse} Response */

/** The largest JSON body a request may have: a few options. */
const MAX_JSON_BYTES = 4096;

/**
 * The status of a refusal, by what refused it.
 * @param {unknown} error
 */
function statusOf(error) {
  if (error instanceof ApiRefusal) return error.status;
  if (error instanceof ArchiveRefusal) return error.tooLarge ? 413 : 400;
  // The store out of reach, or the gate that could not judge (its site or browser too slow): nothing was done.
  if (error instanceof StoreUnavailable || error instanceof Undecided) return 503;
  // A canary's options the command would refuse as wrong usage.
  if (error instanceof UsageError) return 400;
  // A canary whose state cannot be read.
  if (error instanceof Refusal) return 409;
  if (error instanceof StoreBusyError || error instanceof StoreConflict || error instanceof ReleaseError) return 409;
  // A build the store will not take as a release (another remote's, a directive of its own in its HTML).
  if (error instanceof StoreRefusal) return 400;
  return 500;
}

/**
 * @typedef {object} Route
 * @property {string} method
 * @property {RegExp} path its groups: the remote, then the release id where there is one
 * @property {DeployAction | 'read'} action what the credential must reach
 * @property {(context: Context) => Promise<{ status?: number, body: unknown }>} handle
 * @property {boolean} [ownTurn] a change that takes its remote's turn itself, for its part that changes the store (a
 *   publish, once its archive is unpacked); any other change waits its turn whole, once its options are read
 */

/**
 * @typedef {object} Context
 * @property {Request} req
 * @property {Response} res
 * @property {string} remote
 * @property {string | undefined} id
 * @property {RemoteStore} store the remote's store, changed as the request's actor
 * @property {URLSearchParams} query
 * @property {Principal} principal
 * @property {() => Promise<Record<string, unknown>>} options the request's JSON body, read once
 * @property {<T>(work: () => Promise<T>) => Promise<T>} inTurn `work` in the remote's turn (a route's `ownTurn`)
 */

/**
 * @param {object} options
 * @param {(remote: string, actor: Actor) => RemoteStore} options.openRemote the remote's store, changed as `actor`
 * @param {import('./tokens/tokenStore').TokenStore} options.tokens
 * @param {ReturnType<typeof import('./oidc').oidcVerifier>} [options.oidc] CI identity tokens' verifier (trusted
 *   publishing), when the operator trusts an issuer
 * @param {(remote: string, skip: boolean) => import('@nativegtm/store/operations').Gate | null} options.gate
 * @param {import('@nativegtm/server/fieldData/clientNetwork').Trust} options.trust TRUSTED_PROXIES
 * @param {{ maxBytes: number, maxEntries: number }} options.limits a published archive's
 * @param {number} options.bodyIdleMs how long a request's body may send nothing before it is refused
 * @param {number} options.failuresPerMinute credentials a network may get wrong in a minute
 * @param {import('@nativegtm/server/observability/logger').Logger} options.logger
 * @param {import('./metrics').DeployMetrics} [options.metrics] where each answer is counted
 * @param {ReturnType<typeof import('./canaryRuns').createCanaryRuns>} options.canaries the canaries the API drives
 * @param {import('@nativegtm/server/fieldData/fieldRecords').FieldRecordSource} options.fieldRecords what a canary's
 *   status reads
 * @param {(text: string) => string} options.hidePaths each of the server's paths in a text of an answer, named
 *   (serverPaths.js)
 * @param {() => Date} [options.now]
 */
function createDeployApi({
  openRemote,
  canaries,
  fieldRecords,
  tokens,
  oidc,
  gate,
  trust,
  limits,
  bodyIdleMs,
  failuresPerMinute,
  logger,
  metrics,
  hidePaths,
  now = () => new Date(),
}) {
  const failures = failureLimit(failuresPerMinute);

  /**
   * The changes of one remote, one after the other: the store lets one command at a time change a remote and refuses
   * the next at once, which suits a person at a terminal; two pipelines of a team publishing together wait their turn
   * here instead (behind a gate, minutes). Reads do not wait, nor does a request's body: a change's options are read
   * before it waits, and a publish unpacks its archive into a scratch folder first and waits its turn only to store
   * it, so an abort or a rollback never waits for someone's slow upload.
   * @type {Map<string, Promise<unknown>>}
   */
  const turns = new Map();
  /**
   * @template T
   * @param {string} remote
   * @param {() => Promise<T>} work
   * @returns {Promise<T>}
   */
  const inTurn = (remote, work) => {
    const before = turns.get(remote) ?? Promise.resolve();
    const mine = before.then(work, work);
    const settled = mine.catch(() => {});
    turns.set(remote, settled);
    settled.then(() => {
      if (turns.get(remote) === settled) turns.delete(remote);
    });
    return mine;
  };

  /** @type {Route[]} */
  const routes = [
    {
      method: 'GET',
      path: /^\/v1\/remotes\/([^/]+)\/releases$/,
      action: 'read',
      handle: async ({ store }) => {
        const [listed, changes, audit, running, ended] = await Promise.all([
          store.releases(),
          store.changes(),
          store.audit(),
          store.canary(),
          store.endedCanaries(),
        ]);
        // Not the store's `where`: the client names the API as where its releases are.
        return { body: { ...listed, changes, audit, canary: running, endedCanaries: ended } };
      },
    },
    {
      method: 'POST',
      path: /^\/v1\/remotes\/([^/]+)\/releases$/,
      action: 'publish',
      ownTurn: true,
      handle: (context) => publish(context, { limits, bodyIdleMs }),
    },
    {
      method: 'POST',
      path: /^\/v1\/remotes\/([^/]+)\/releases\/([^/]+)\/promote$/,
      action: 'promote',
      handle: async ({ store, remote, id, principal, options }) => {
        const skip = (await options()).skipGate === true;
        if (skip) need(principal, remote, 'skip-gate');
        const result = await store.promote(releaseIdOf(id), { gate: gate(remote, skip) });
        return { body: result };
      },
    },
    {
      method: 'POST',
      path: /^\/v1\/remotes\/([^/]+)\/releases\/([^/]+)\/preview$/,
      action: 'preview',
      handle: async ({ store, remote, id, principal, options }) => {
        const allowFailed = (await options()).allowFailed === true;
        if (allowFailed) need(principal, remote, 'preview-failed');
        return { body: await store.preview(releaseIdOf(id), { allowFailed }) };
      },
    },
    {
      method: 'GET',
      path: /^\/v1\/remotes\/([^/]+)\/canary$/,
      action: 'read',
      handle: async ({ store }) => ({ body: { lines: await canaryStatusLines(store, fieldRecords) } }),
    },
    {
      method: 'GET',
      path: /^\/v1\/remotes\/([^/]+)\/canary\/run$/,
      action: 'read',
      handle: async ({ remote, query }) => {
        const from = query.get('from') ?? '0';
        if (!/^\d{1,6}$/.test(from)) throw new ApiRefusal(400, 'from must be a line number');
        return { body: { run: canaries.read(remote, Number(from)) } };
      },
    },
    {
      method: 'POST',
      path: /^\/v1\/remotes\/([^/]+)\/canary$/,
      action: 'canary',
      handle: async ({ store, remote, principal, options }) => {
        const body = await options();
        const skip = body.skipGate === true;
        if (skip) need(principal, remote, 'skip-gate');
        const id = releaseIdOf(typeof body.id === 'string' ? body.id : undefined);
        const plan = canaryPlan(canaryOptionTexts(body.options));
        const state = await store.startCanary(id, { ...plan, gate: gate(remote, skip), now: Date.now, byApi: true });
        canaries.drive(store, state);
        return { status: 201, body: { canary: state } };
      },
    },
    {
      method: 'POST',
      path: /^\/v1\/remotes\/([^/]+)\/canary\/resume$/,
      action: 'canary',
      handle: async ({ store }) => {
        const state = await store.takeOverCanary({ byApi: true });
        canaries.drive(store, state);
        return { body: { canary: state } };
      },
    },
    {
      method: 'DELETE',
      path: /^\/v1\/remotes\/([^/]+)\/canary$/,
      action: 'abort',
      handle: async ({ store }) => ({ body: await store.abortCanary({ now: Date.now }) }),
    },
    {
      method: 'POST',
      path: /^\/v1\/remotes\/([^/]+)\/rollback$/,
      action: 'rollback',
      handle: async ({ store }) => ({ body: await store.rollback() }),
    },
    {
      method: 'POST',
      path: /^\/v1\/remotes\/([^/]+)\/prune$/,
      action: 'prune',
      handle: async ({ store, options }) => {
        const { keep } = await options();
        if (keep !== undefined && !(Number.isSafeInteger(keep) && /** @type {number} */ (keep) >= 0)) {
          throw new ApiRefusal(400, `keep must be a whole number, not ${JSON.stringify(keep)}`);
        }
        return { body: await store.prune({ keep: keep === undefined ? DEFAULT_KEEP : /** @type {number} */ (keep) }) };
      },
    },
  ];

  /**
   * The principal of the request's credential; refused (401, or 429 for a network that got too many wrong).
   * @param {Request} req
   * @param {string} network
   * @returns {Promise<Principal>}
   */
  async function authenticate(req, network) {
    const credential = bearerOf(req.headers.authorization);
    const proved = await failures.check(network, async () =>
      !credential
        ? { problem: 'no credential: send Authorization: Bearer <token>' }
        : oidc && looksLikeJwt(credential)
          ? oidc.verify(credential, now())
          : tokenPrincipal(credential, tokens, now()),
    );
    if ('principal' in proved) return proved.principal;
    throw new ApiRefusal(proved.status, proved.problem);
  }

  /**
   * @param {Request} req
   * @param {Response} res
   */
  async function handle(req, res) {
    const started = process.hrtime.bigint();
    // The path as sent, undecoded: routes match it whole, and a remote or an id in it is checked before it is used.
    const [pathname = '/', search = ''] = (req.url ?? '/').split('?');
    const address = clientAddress(req, trust);
    const network = networkOf(address);
    /** @type {Principal | undefined} */
    let principal;
    /** @type {{ status?: number, body: unknown }} */
    let answer;
    /** The one line of a refusal, logged with the answer: a client that went away never reads it. */
    let refused;
    /** What the request asked, as the metrics count it. */
    let action = 'none';
    try {
      if (pathname === '/healthz' && req.method === 'GET') {
        answer = { body: { ok: true } };
      } else {
        const found = findRoute(routes, req.method ?? 'GET', pathname);
        action = found.route.action;
        const remote = found.match[1] ?? '';
        if (!isRemoteName(remote)) throw new ApiRefusal(404, `there is no remote "${printable(remote)}"`);
        principal = await authenticate(req, network);
        need(principal, remote, found.route.action);
        const actor = address === undefined ? principal.actor : { ...principal.actor, network: address };
        /** @type {Promise<Record<string, unknown>> | undefined} */
        let options;
        /** @type {Context} */
        const context = {
          req,
          res,
          remote,
          id: found.match[2],
          store: openRemote(remote, actor),
          query: new URLSearchParams(search),
          principal,
          options: () => (options ??= jsonBody(req, bodyIdleMs)),
          inTurn: (work) => inTurn(remote, work),
        };
        if (found.route.method === 'GET' || found.route.ownTurn) {
          answer = await found.route.handle(context);
        } else {
          await context.options();
          answer = await inTurn(remote, () => found.route.handle(context));
        }
      }
    } catch (error) {
      const status = statusOf(error);
      const message =
        status === 500 ? 'the deploy API failed; its log says why' : String(/** @type {Error} */ (error).message);
      if (status === 500) logger.error({ err: error, path: pathname }, 'request failed');
      refused = message;
      answer = { status, body: error instanceof Undecided ? { error: message, undecided: true } : { error: message } };
    }
    const status = answer.status ?? 200;
    // A request whose body the API stopped reading (too large, refused before it) ends its connection: what the
    // client is still sending is never read.
    if (!req.complete) res.setHeader('Connection', 'close');
    send(res, status, answer.body, hidePaths);
    metrics?.answered(action, status);
    logger.info(
      {
        method: req.method,
        // The path only: a query string is never logged, and no credential is in a path.
        path: pathname,
        status,
        error: refused,
        network,
        who: principal?.name,
        ms: Number(process.hrtime.bigint() - started) / 1e6,
      },
      'request',
    );
  }

  /** @type {import('node:http').RequestListener} */
  const handler = (req, res) =>
    void handle(req, res).catch((error) => {
      // What answering itself failed on (a client gone mid-answer): logged, and the connection ended.
      logger.error({ err: error }, 'answer failed');
      res.destroy();
    });

  return { handler };
}

/**
 * The route of a request; refused 404 (no such path) or 405 (not that method).
 * @param {Route[]} routes
 * @param {string} method
 * @param {string} pathname
 */
function findRoute(routes, method, pathname) {
  const matching = routes.flatMap((route) => {
    const match = route.path.exec(pathname);
    return match ? [{ route, match }] : [];
  });
  if (matching.length === 0) throw new ApiRefusal(404, `there is nothing at ${printable(pathname)}`);
  const found = matching.find((candidate) => candidate.route.method === method);
  if (!found)
    throw new ApiRefusal(405, `${printable(pathname)} takes ${matching.map((m) => m.route.method).join(', ')}`);
  return found;
}

/**
 * Refuses (403) unless the principal may do `action` to `remote`, naming what it may do.
 * @param {Principal} principal
 * @param {string} remote
 * @param {DeployAction | 'read'} action
 */
function need(principal, remote, action) {
  if (principal.may(remote, action)) return;
  const allowed = principal.actionsOn(remote);
  throw new ApiRefusal(
    403,
    `${principal.name} may not ${action} ${remote}` +
      (allowed.length > 0 ? ` (it may ${allowed.join(', ')})` : ` (it reaches no action of ${remote})`),
  );
}

/**
 * A release id from the path, or a refusal (it is never used unchecked).
 * @param {string | undefined} id
 */
function releaseIdOf(id) {
  if (id === undefined || !RELEASE_ID.test(id))
    throw new ApiRefusal(404, `"${printable(id ?? '')}" is not a release id`);
  return id;
}

/**
 * Publishes the .tar.gz the request's body streams, named by its sha256, unpacked within the limits into a scratch
 * folder, then into the store; the scratch folder is removed whatever happens, so a refused, cut-off or stalled upload
 * leaves nothing behind.
 * @param {Context} context
 * @param {{ limits: { maxBytes: number, maxEntries: number }, bodyIdleMs: number }} options
 */
async function publish({ req, store, principal, inTurn }, { limits, bodyIdleMs }) {
  const sha256 = req.headers[ARCHIVE_SHA256_HEADER];
  if (typeof sha256 !== 'string') throw new ApiRefusal(400, `name the archive's sha256 in ${ARCHIVE_SHA256_HEADER}`);
  const length = Number(req.headers['content-length']);
  // Refused before a byte of it is read when it says it is too large.
  if (length > limits.maxBytes) {
    throw new ArchiveRefusal(`the archive passes the limit of ${limits.maxBytes} bytes`, { tooLarge: true });
  }
  const commit = principal.actor.commit ?? commitHeader(req.headers[SOURCE_COMMIT_HEADER]);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-deploy-'));
  try {
    const buildDir = path.join(scratch, 'dist');
    const unpacked = await readBody(req, bodyIdleMs, (body) => unpackRelease(body, buildDir, { ...limits, sha256 }));
    const { id, existed } = await inTurn(() => store.publish(buildDir, { commit, dirty: false })).catch((error) => {
      // The store names the folder it was given: to the client, that is its archive.
      if (error instanceof StoreRefusal) error.message = error.message.replaceAll(buildDir, 'the archive');
      throw error;
    });
    return { status: existed ? 200 : 201, body: { id, existed, entries: unpacked.entries, sha256: unpacked.sha256 } };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * The commit a publish says its build is from: a git object name, or none.
 * @param {string | string[] | undefined} header
 */
function commitHeader(header) {
  if (header === undefined) return null;
  if (typeof header !== 'string' || !/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(header)) {
    throw new ApiRefusal(400, `${SOURCE_COMMIT_HEADER} must be a commit's full hex name`);
  }
  return header;
}

/**
 * The request's JSON body (an object; none is `{}`), bounded in bytes and in time; a refusal otherwise.
 * @param {Request} req
 * @param {number} idleMs
 * @returns {Promise<Record<string, unknown>>}
 */
async function jsonBody(req, idleMs) {
  const bytes = await readBody(req, idleMs, async (body) => {
    const chunks = [];
    let size = 0;
    for await (const chunk of body) {
      size += chunk.length;
      if (size > MAX_JSON_BYTES) throw new ApiRefusal(413, `the request's body passes ${MAX_JSON_BYTES} bytes`);
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  });
  const text = bytes.toString('utf8');
  if (text.trim() === '') return {};
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiRefusal(400, "the request's body is not JSON");
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ApiRefusal(400, "the request's body is not a JSON object");
  }
  return value;
}

/**
 * @param {Response} res
 * @param {number} status
 * @param {unknown} body
 * @param {(text: string) => string} hidePaths
 */
function send(res, status, body, hidePaths) {
  // Every text in it, however deep: a gate's check, a canary's line, a refusal.
  const text = `${JSON.stringify(body, (_, value) => (typeof value === 'string' ? hidePaths(value) : value))}\n`;
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(text);
}

module.exports = { createDeployApi };
