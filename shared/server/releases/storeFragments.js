// The server-rendered files nginx pastes into documents, on a node with a release store. nginx cannot read what it
// includes, so its fragment relay asks the collector beside it (FRAGMENTS_PATH<remote>/[releases/<id>/]ssr/<file>)
// rather than the remote, and gets:
// - for a release in the store (live, or the one a preview or a canary side names): the file from the node's copy,
//   only when its bytes are the ones the release's record names through its ssr/manifest.json, as the built-in
//   server pastes them (documentComposer.js); otherwise a comment saying so, and the page renders in the browser;
// - for a remote with nothing live in the store: the file its own server answers, as the relay fetched it before,
//   unchecked: the site trusts that server with its list of files too (vouchedRemotes.js).
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { LRUCache } = require('lru-cache');
const { fragmentPaths, FRAGMENT_DIR } = require('@nativegtm/contract/fragments');
const { INTEGRITY_ALGORITHM, fragmentIntegrityOf, isFragmentFile } = require('@nativegtm/contract/integrity');
const { RELEASE_ID, RELEASE_PATH_PREFIX, releaseFolder } = require('@nativegtm/contract/releases');
const { storeLayout } = require('@nativegtm/store/layout');
const { under } = require('../routeTable');

/** Where the relay asks for a remote's server-rendered files. */
const FRAGMENTS_PATH = '/_fragments/';
/** A segment of a path a build writes in ssr/ (slugs, with "--" and "_"). */
const SEGMENT = /^[A-Za-z0-9._-]+$/;
/** What a file left out is answered with. */
const LEFT_OUT = '<!-- left out: not the bytes its release recorded -->';
/** A server-rendered file weighs far less; one heavier is not read. */
const MAX_FRAGMENT_BYTES = 4 * 1024 * 1024;

/** @param {Buffer} bytes */
const integrityOf = (bytes) =>
  `${INTEGRITY_ALGORITHM}-${createHash(INTEGRITY_ALGORITHM).update(bytes).digest('base64')}`;

/**
 * A file of a release's folder, or undefined when it is missing or heavier than MAX_FRAGMENT_BYTES.
 * @param {string} file
 */
function readBounded(file) {
  try {
    if (fs.statSync(file).size > MAX_FRAGMENT_BYTES) return undefined;
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * What a relay's path asks for: the remote, the release it names (none: the live one) and the server-rendered file.
 * @param {string} pathname
 * @param {readonly string[]} remoteNames
 * @returns {{ remote: string, id: string | undefined, file: string } | undefined}
 */
function parseFragmentPath(pathname, remoteNames) {
  const [remote, ...rest] = pathname.slice(FRAGMENTS_PATH.length).split('/');
  if (remote === undefined || !remoteNames.includes(remote)) return undefined;
  let id;
  if (`${rest[0]}/` === RELEASE_PATH_PREFIX) {
    id = rest[1];
    if (id === undefined || !RELEASE_ID.test(id)) return undefined;
    rest.splice(0, 2);
  }
  const file = rest.join('/');
  // Only what nginx includes (a head or a page's HTML), in names a build writes: no dot segment, and nothing encoded,
  // which a URL parser would decode into one ("%2e%2e") when a dist/ remote's file is fetched.
  if (rest[0] !== FRAGMENT_DIR || !isFragmentFile(file)) return undefined;
  if (!rest.every((segment) => SEGMENT.test(segment) && !/^\.+$/.test(segment))) return undefined;
  return { remote, id, file };
}

/**
 * @param {{ remotes: import('../remotesFile').RemotesFile, releasesDir: string, remoteNames: readonly string[],
 *   vouched: ReturnType<typeof import('./vouchedRemotes').createVouchedRemotes>,
 *   events?: import('../fragmentCache').CacheEvents, fetchImpl?: typeof fetch, timeoutMs?: number }} options
 *   remotes: the operator's remotes.json (where a remote with nothing in the store is served); vouched: what this
 *   node vouches for; events: told of each file left out for its bytes; timeoutMs: how long a remote's server may
 *   take to answer (nginx gives up at the fragment timeout in any case)
 * @returns {import('../routeTable').Route}
 */
function storeFragmentsRoute({
  remotes,
  releasesDir,
  remoteNames,
  vouched,
  events,
  fetchImpl = fetch,
  timeoutMs = 3000,
}) {
  /**
   * Each release's manifest found vouched for: the integrity of its files (a release never changes).
   * @type {LRUCache<string, Record<string, string>>}
   */
  const manifests = new LRUCache({ max: 256 });

  /**
   * The release's file, if its bytes are the ones its record names through its manifest.
   * @param {string} remote
   * @param {{ release: string, integrity: string | undefined }} vouchedManifest
   * @param {string} file
   * @returns {Buffer | undefined}
   */
  function vouchedFile(remote, { release, integrity }, file) {
    const folder = storeLayout(releasesDir, remote).release(release);
    const key = `${remote}/${release}`;
    let listed = manifests.get(key);
    if (!listed) {
      const bytes = readBounded(path.join(folder, fragmentPaths.manifest));
      if (!bytes || integrity === undefined || integrityOf(bytes) !== integrity) return undefined;
      try {
        listed = fragmentIntegrityOf(JSON.parse(bytes.toString('utf8')));
      } catch {
        return undefined;
      }
      manifests.set(key, listed);
    }
    const expected = listed[file];
    const bytes = expected === undefined ? undefined : readBounded(path.join(folder, file));
    return bytes && integrityOf(bytes) === expected ? bytes : undefined;
  }

  /**
   * A file of a remote served from its own dist/, as its server answers it.
   * @param {string} remote
   * @param {string} file
   * @returns {Promise<Buffer | undefined>}
   */
  async function distFile(remote, file) {
    const manifest = remotes.entries()?.[remote];
    if (!manifest) return undefined;
    const url = new URL(file, new URL('./', manifest));
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), timeoutMs);
    try {
      const response = await fetchImpl(url, { redirect: 'manual', signal: timeout.signal });
      if (response.status !== 200) {
        await response.body?.cancel();
        return undefined;
      }
      // Read as it comes, and given up past MAX_FRAGMENT_BYTES: a remote's server cannot make this one hold it all.
      /** @type {Buffer[]} */
      const chunks = [];
      let size = 0;
      for await (const chunk of /** @type {AsyncIterable<Uint8Array>} */ (response.body ?? [])) {
        size += chunk.length;
        if (size > MAX_FRAGMENT_BYTES) {
          timeout.abort();
          return undefined;
        }
        chunks.push(Buffer.from(chunk));
      }
      return Buffer.concat(chunks);
    } catch {
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    label: 'fragments',
    path: under(FRAGMENTS_PATH),
    async handle(req, res, { pathname }) {
      const asked = parseFragmentPath(pathname, remoteNames);
      const store = asked && vouched.serverRendered(asked.remote, asked.id);
      /** @type {Buffer | string | undefined} */
      let answer;
      if (asked && store) {
        // The release nginx reads from: the one asked for, or the live one (the first the store names).
        const [release] = store.manifests;
        answer = release && vouchedFile(asked.remote, release, asked.file);
        if (!answer) {
          events?.refused?.({ url: `${asked.id ? releaseFolder(asked.id) : ''}${asked.file}`, label: asked.remote });
          // A comment, not an empty answer: an empty include left about one document in five unsent here (nginx
          // 1.22 logs "zero size buf in writer" and holds the response). The page renders in the browser, without
          // the template's fallback for that include.
          answer = LEFT_OUT;
        }
      } else if (asked && asked.id === undefined) {
        answer = await distFile(asked.remote, asked.file);
      }
      res.setHeader('Cache-Control', 'no-store');
      if (answer === undefined) {
        // As the remote's failure reached the relay before: it answers the include's fallback.
        res.statusCode = asked ? 502 : 404;
        return res.end();
      }
      const json = answer !== LEFT_OUT && asked?.file.endsWith('.json');
      res.setHeader('Content-Type', `${json ? 'application/json' : 'text/html'}; charset=utf-8`);
      return res.end(req.method === 'HEAD' ? undefined : answer);
    },
  };
}

module.exports = { FRAGMENTS_PATH, LEFT_OUT, parseFragmentPath, storeFragmentsRoute };
