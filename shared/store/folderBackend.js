// The folder backend of the store (storeBackend.js): one remote's releases in the folder layout (layout.js), which
// both servers read as it is. A change runs under the remote's lock (storeLock.js), writes as it goes, each write
// whole and on disk (durableFiles.js) and each checked against the lock's fence first (a command that lost the lock
// writes nothing more), and undoes what can be undone when it fails: the ended canary's line, and the history line of
// a live pointer that could not be turned. A change that wrote anything appends its line to the remote's audit
// (audit.js) before it lets go of the lock.
const fs = require('node:fs');
const path = require('node:path');
const { storeLayout } = require('./layout');
const { machineActor } = require('./actor');
const { appendAudit, readAudit } = require('./audit');
const { readCanary, writeCanary, endCanary } = require('./canaryInStore');
const { isEndedCanary } = require('./canaryChanges');
const { withRenewal } = require('./canaryLease');
const { appendLinesDurably, writeFileDurably } = require('./durableFiles');
const { readHistory, readJsonLines } = require('./liveHistory');
const { readLivePointer, writeLivePointer } = require('./livePointer');
const { publishRelease } = require('./publish');
const { appendHistory, listReleases, readGate, readRecord, writeGate } = require('./records');
const { metadataCheck } = require('./releaseFiles');
const { withStoreLock } = require('./storeLock');
const { StoreRefusal } = require('./storeRefusal');

/** @typedef {import('./layout').StoreLayout} StoreLayout */
/** @typedef {import('./storeBackend').RemoteState} RemoteState */
/** @typedef {import('./storeBackend').StoreBackend} StoreBackend */
/** @typedef {import('./storeLock').Fence} Fence */

/**
 * The store's remote folder exists and can be written: otherwise one clear refusal before anything is done.
 * @param {StoreLayout} layout
 */
function ensureWritable(layout) {
  try {
    fs.mkdirSync(layout.dir, { recursive: true });
    fs.accessSync(layout.dir, fs.constants.W_OK);
  } catch (error) {
    const code = /** @type {NodeJS.ErrnoException} */ (error).code;
    throw new StoreRefusal(`the release store cannot be written at ${layout.dir} (${code})`);
  }
}

/**
 * Makes `change.id` live: the history line first (should the command stop between the two, the pointer still names
 * what was live), then the pointer; a pointer that cannot be turned takes the line out again.
 * @param {StoreLayout} layout
 * @param {import('./liveHistory').LiveChange} change
 * @param {Fence} fence
 */
function changeLive(layout, change, fence) {
  const undo = appendHistory(layout, change, fence);
  try {
    writeLivePointer(layout, change.id, fence);
  } catch (error) {
    undo();
    throw error;
  }
}

/**
 * Removes a release: out of sight in one rename (a server never sees half of it), then deleted, with its record, its
 * gate and the marks of its previews.
 * @param {StoreLayout} layout
 * @param {string} id
 * @param {Fence} [fence] the store's lock's, under it
 */
function removeRelease(layout, id, fence = () => {}) {
  fs.mkdirSync(layout.incoming, { recursive: true });
  const doomed = path.join(layout.incoming, `pruned-${id}`);
  fence();
  // What a prune of the same id cut short left there (a rename onto a folder that is not empty fails).
  fs.rmSync(doomed, { recursive: true, force: true });
  // That may have taken long enough to lose the lock.
  fence();
  fs.renameSync(layout.release(id), doomed);
  const marks = fs.existsSync(layout.previewMarks) ? fs.readdirSync(layout.previewMarks) : [];
  for (const file of [
    layout.record(id),
    layout.gate(id),
    layout.gateFailed(id),
    ...marks.filter((mark) => mark.startsWith(`${id}.`)).map((mark) => path.join(layout.previewMarks, mark)),
  ]) {
    fence();
    fs.rmSync(file, { force: true });
  }
}

/**
 * Removes the shared files no kept release names, and what interrupted publishes left (nothing else writes there
 * while the lock is held). A publish takes the same lock, so none of the release a prune removes can land between the
 * prune's reads and its deletes (on PostgreSQL, where the deletes follow the commit, it can:
 * ./postgres/releaseObjects.js); it is refused while the prune runs (tested).
 * @param {StoreLayout} layout
 * @param {import('./records').ReleaseRecord[]} kept
 * @param {Fence} [fence] the store's lock's, under it: checked before each file, since another command's publish
 *   adds files no release this one read names
 */
function removeUnusedFiles(layout, kept, fence = () => {}) {
  const named = new Set(kept.flatMap((release) => release.hashedFiles));
  for (const file of fs.existsSync(layout.assets) ? fs.readdirSync(layout.assets) : []) {
    if (named.has(file)) continue;
    fence();
    fs.rmSync(path.join(layout.assets, file), { force: true });
  }
  fence();
  fs.rmSync(layout.incoming, { recursive: true, force: true });
}

/**
 * The running canary with its lease as last renewed; a renewal file that cannot be read renews nothing.
 * @param {StoreLayout} layout
 */
function canaryRenewed(layout) {
  const read = readCanary(layout);
  if (!read.canary) return read;
  let renewal;
  try {
    renewal = JSON.parse(fs.readFileSync(layout.canaryLease, 'utf8'));
  } catch {
    return read;
  }
  return { canary: withRenewal(read.canary, renewal) };
}

/**
 * The remote's folder as a change sees it; `undos` collects what the change can take back, `fence` is the lock's
 * (checked before each step of a write that others can see), `wrote` is called on each write.
 * @param {StoreLayout} layout
 * @param {string} remote
 * @param {(() => void)[]} undos
 * @param {Fence} fence
 * @param {() => void} [wrote]
 * @returns {RemoteState}
 */
function folderState(layout, remote, undos, fence, wrote = () => {}) {
  /**
   * @template {unknown[]} A
   * @template T
   * @param {(...args: A) => T} write
   * @returns {(...args: A) => T}
   */
  const writing =
    (write) =>
    (...args) => {
      wrote();
      return write(...args);
    };
  return {
    record: (id) => readRecord(layout, id),
    releases: () => listReleases(layout),
    gate: (id) => readGate(layout, id),
    history: () => readHistory(layout),
    pointer: () => readLivePointer(layout),
    canary: () => canaryRenewed(layout),
    endedCanaries: () => readJsonLines(layout.canaryHistory).filter(isEndedCanary),
    unusable: (id) => {
      const files = metadataCheck(layout.release(id), remote);
      return files.ok ? undefined : files.detail;
    },
    writeGate: writing((id, result) => writeGate(layout, id, result, fence)),
    changeLive: writing((change) => changeLive(layout, change, fence)),
    writeCanary: writing((state) => {
      writeCanary(layout, remote, state, fence);
      fence();
      fs.rmSync(layout.canaryLease, { force: true });
    }),
    endCanary: writing(() => {
      endCanary(layout, fence);
      fence();
      fs.rmSync(layout.canaryLease, { force: true });
    }),
    recordEnd: writing((ended) =>
      undos.push(appendLinesDurably(layout.canaryHistory, `${JSON.stringify(ended)}\n`, { fence })),
    ),
    addPreviewMark: writing((id, mark) => {
      fs.mkdirSync(layout.previewMarks, { recursive: true });
      fence();
      fs.writeFileSync(layout.previewMark(id, mark), '');
    }),
    removeRelease: writing((id) => removeRelease(layout, id, fence)),
    removeUnusedFiles: writing((kept) => removeUnusedFiles(layout, kept, fence)),
  };
}

/**
 * @param {string} dir the store's folder
 * @param {string} remote
 * @param {{ onCanaryChange?: () => Promise<void>, actor?: import('./actor').Actor }} [options] onCanaryChange: after
 *   each change of a canary; actor: who makes the changes (this process's user and host unless given)
 * @returns {StoreBackend}
 */
function folderBackend(dir, remote, { onCanaryChange = async () => {}, actor = machineActor() } = {}) {
  const layout = storeLayout(dir, remote);
  /**
   * @param {string} action
   * @param {Fence} fence
   * @returns {void}
   */
  const audit = (action, fence) =>
    appendAudit(layout.audit, { at: new Date().toISOString(), remote, action, actor }, fence);
  /**
   * Runs `work` under the remote's lock, once the store is known writable.
   * @template T
   * @param {string} label
   * @param {(fence: Fence) => Promise<T>} work
   */
  const locked = async (label, work) => {
    ensureWritable(layout);
    return withStoreLock(layout.lock, label, work);
  };
  /** @type {StoreBackend['change']} */
  const change = (label, work) =>
    locked(label, async (fence) => {
      /** @type {(() => void)[]} */
      const undos = [];
      let wrote = false;
      try {
        const result = await work(
          folderState(layout, remote, undos, fence, () => {
            wrote = true;
          }),
        );
        // Inside the lock, after the change: the audit's order is the store's. Should the line not be written (a
        // full disk), the change is refused and what can be undone is; the folder writes as it goes, so the rest of
        // it stays without its line (the database's audit is in the change's transaction: no such gap).
        if (wrote) audit(label, fence);
        return result;
      } catch (error) {
        // Each undo is fenced too: one that finds the lock lost stops there, leaving the store to its new holder.
        for (const undo of undos.reverse()) undo();
        throw error;
      }
    });
  return {
    remote,
    where: layout.dir,
    actor,
    change,
    // No lock, so no fence: a read writes nothing.
    read: async (read) => read(folderState(layout, remote, [], () => {})),
    audit: async () => readAudit(layout.audit),
    publish: (buildDir, source) =>
      locked(`release ${remote}`, async (fence) => {
        const published = publishRelease(layout, remote, buildDir, { ...source, by: actor.by, fence });
        if (!published.existed) audit(`release ${remote} ${published.id}`, fence);
        return published;
      }),
    releaseFiles: async (id) => ({ dir: layout.release(id), done: async () => {} }),
    told: onCanaryChange,
    // Under the lock, as a change: a take-over cannot read the lease between this renewal's check and its write.
    renewLease: (label, renew) =>
      locked(label, async (fence) => {
        writeFileDurably(layout.canaryLease, JSON.stringify(renew(canaryRenewed(layout))), { fence });
      }),
  };
}

module.exports = { folderBackend, removeRelease, removeUnusedFiles };
