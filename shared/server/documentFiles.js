// nginx's documents for everyone, as files it sends like any static file (sendfile, gzip_static, brotli_static):
// composed by the collector beside nginx with the built-in server's own machinery (documentComposer.js composes one,
// sharedDocuments.js composes them again when what they are made of changes), and written where the generated
// configuration looks for them (@nativegtm/contract/documentFiles). nginx composes per request (SSI) whatever has no
// file, so a collector that composes nothing yet (no plan from nginx:config, a remote that never answered) costs
// speed, not documents.
//
// Each file is written beside its place and renamed onto it: a request gets the old document or the new one, never a
// torn one. The compressed files of a document are written before its plain one, which is what nginx looks for.
//
// Limit: a collector killed outright leaves its last documents in place, served as they are until it is started
// again (it clears them when it starts and when it stops); its node's /readyz goes with it, so a load balancer takes
// the node out of service meanwhile.
const fs = require('node:fs');
const path = require('node:path');
const { NOT_FOUND_SCREEN } = require('@nativegtm/contract/composePaths');
const { PLAN_FILE, canaryFolder, documentFile, parseDocumentsPlan } = require('@nativegtm/contract/documentFiles');
const { CANARIES_META, parseCanaries } = require('@nativegtm/contract/canaryBuckets');
const { createDocumentComposer } = require('./documentComposer');
const { createSharedDocuments, NOT_FOUND_LABEL } = require('./sharedDocuments');

/** How often the collector looks for a plan nginx:config wrote or changed. */
const PLAN_CHECK_MS = 1000;

/** @typedef {import('./sharedDocuments').ReadyDocument} ReadyDocument */

/**
 * @param {string} file
 * @param {Buffer} bytes
 */
async function replaceFile(file, bytes) {
  const beside = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  await fs.promises.writeFile(beside, bytes);
  await fs.promises.rename(beside, file);
}

/** The canaries a document's site head lists (siteMeta.js), as its meta tag says them. */
const LISTED = new RegExp(`<meta name="${CANARIES_META}" content="([^"]*)"`);

/**
 * @param {string} file
 */
async function removeDocumentFile(file) {
  // The plain file first: without it nginx composes, and never looks for the others.
  for (const name of [file, `${file}.gz`, `${file}.br`]) await fs.promises.rm(name, { force: true });
}

/**
 * Writes a screen's documents into `dir` as they change, and removes those no longer ready.
 * @param {string} dir the documents folder
 * @param {string[]} [canaryRemotes] with a release store, the plan's: each document goes in the folder of the canaries
 *   it lists (@nativegtm/contract/documentFiles)
 */
function createDocumentWriter(dir, canaryRemotes) {
  /**
   * The documents on disk, by screen, then by variant key, with the file each is in.
   * @type {Map<string, Map<string, { document: ReadyDocument, file: string }>>}
   */
  const written = new Map();
  /**
   * @param {string} screen
   * @param {string} key
   * @param {ReadyDocument} document
   */
  const fileOf = (screen, key, document) =>
    path.join(
      dir,
      documentFile(
        screen,
        key,
        canaryRemotes && canaryFolder(canaryRemotes, parseCanaries(LISTED.exec(document.html)?.[1] ?? '')),
      ),
    );
  return {
    /**
     * @param {string} screen
     * @param {ReadonlyMap<string, ReadyDocument>} ready
     */
    async swap(screen, ready) {
      const before = written.get(screen) ?? new Map();
      // What is on disk, as far as it got: a write that fails is tried again with the screen's next swap.
      const onDisk = new Map(before);
      written.set(screen, onDisk);
      for (const [key, document] of ready) {
        const last = before.get(key);
        if (last?.document === document) continue;
        const file = fileOf(screen, key, document);
        const { identity, br, gzip } = document.encoded;
        onDisk.delete(key);
        await fs.promises.mkdir(path.dirname(file), { recursive: true });
        if (br) await replaceFile(`${file}.br`, br);
        if (gzip) await replaceFile(`${file}.gz`, gzip);
        await replaceFile(file, identity);
        // Listing other canaries than the last one, it is in another folder: the last one is gone from its own.
        if (last && last.file !== file) await removeDocumentFile(last.file);
        onDisk.set(key, { document, file });
      }
      for (const [key, { file }] of before) {
        if (ready.has(key)) continue;
        await removeDocumentFile(file);
        onDisk.delete(key);
      }
    },
    /**
     * Removes the screens' documents, written by this writer or left by a collector before it: nginx composes them
     * per request again. Only the screens' own folders: DOCUMENTS_DIR set to a folder that holds anything else (a
     * mistake) loses nothing else.
     * @param {string[]} screens
     */
    clear(screens) {
      written.clear();
      for (const screen of screens) fs.rmSync(path.join(dir, screen), { recursive: true, force: true });
    },
  };
}

/** @typedef {Parameters<typeof createDocumentComposer>[0]} ComposerOptions */

/**
 * Composes nginx's documents for everyone into `dir` while nginx:config's plan is there, with the plan's values;
 * starts again when the plan changes. Nothing is composed before there is a plan, or while it is not one.
 * @param {Pick<ComposerOptions, 'remotes' | 'routes' | 'canaries' | 'vouchedFragments' | 'events' | 'metrics'> & {
 *   dir: string, logger: import('./observability/logger').Logger, planCheckMs?: number, intervalMs?: number }} options
 *   dir: DOCUMENTS_DIR, the folder nginx:config's --documents names; the others as the built-in server gives its
 *   composer; planCheckMs: how often the plan is read; intervalMs: sharedDocuments.js's
 */
function startDocumentFiles({ dir, routes, logger, planCheckMs = PLAN_CHECK_MS, intervalMs, ...composerOptions }) {
  /** The writer of the plan composing now (each plan names its canaries' remotes). */
  let writer = createDocumentWriter(dir);
  const screenOf = new Map([
    ...routes.map((route) => /** @type {const} */ ([route.route, route.remote])),
    [NOT_FOUND_LABEL, NOT_FOUND_SCREEN],
  ]);
  const screens = [...screenOf.values()];
  const planFile = path.join(dir, PLAN_FILE);
  /** @type {{ stop: () => Promise<void> } | undefined} */
  let composing;
  /** The plan's text last acted on ('' before any). */
  let planText = '';
  /** The look at the plan under way: one at a time, and stop() waits for it. @type {Promise<void>} */
  let looking = Promise.resolve();
  let stopped = false;
  writer.clear(screens);

  async function stopComposing() {
    await composing?.stop();
    composing = undefined;
    writer.clear(screens);
  }

  /** @param {string} text */
  function startComposing(text) {
    let plan;
    try {
      plan = parseDocumentsPlan(text);
    } catch (error) {
      logger.error({ problem: /** @type {Error} */ (error).message }, 'documents not composed: nginx composes them');
      return;
    }
    const planned = createDocumentWriter(dir, plan.canaryRemotes);
    writer = planned;
    const composer = createDocumentComposer({
      ...composerOptions,
      root: plan.shellRoot,
      routes,
      origin: plan.origin,
      fragmentTimeoutMs: plan.fragmentTimeoutMs,
      sampleRate: plan.sampleRate,
    });
    const shared = createSharedDocuments({
      compose: composer.render,
      intervalMs,
      pinned: [...routes.map((route) => route.route), undefined],
      onSwap: (label, ready) => planned.swap(/** @type {string} */ (screenOf.get(label)), ready),
      metrics: composerOptions.metrics,
      logger,
    });
    composing = {
      async stop() {
        shared.close();
        composer.close();
        // A round under way finishes its writes first: nothing is written after the documents are cleared.
        await shared.settled();
      },
    };
    logger.info({ dir, origin: plan.origin }, 'composing documents for nginx');
  }

  async function checkPlan() {
    let text = '';
    try {
      text = await fs.promises.readFile(planFile, 'utf8');
    } catch {
      // No plan yet (nginx:config has not run), or it was removed: nothing to compose.
    }
    if (stopped || text === planText) return;
    planText = text;
    await stopComposing();
    if (text !== '' && !stopped) startComposing(text);
  }

  const look = () => {
    looking = looking.then(checkPlan);
    return looking;
  };
  const timer = setInterval(look, planCheckMs);
  timer.unref();
  return {
    /** Resolves once the plan there now has been read (and composing started, when there is one). */
    ready: look(),
    /** Stops composing and removes the documents: nginx composes them per request. */
    async stop() {
      stopped = true;
      clearInterval(timer);
      await looking;
      await stopComposing();
    },
  };
}

module.exports = { createDocumentWriter, startDocumentFiles };
