// What the store says about a remote's releases, beside their files: each release's record (immutable, written when
// it is published), the last gate run on it, and the history of the live pointer. JSON files written whole (to a
// temporary name, then renamed), so a reader never sees half of one.
const fs = require('node:fs');
const path = require('node:path');
const { RELEASE_ID } = require('@nativegtm/contract/releases');
const { readLivePointer } = require('@nativegtm/server/releases/livePointer');
const { hasRelease } = require('@nativegtm/server/releases/releaseInStore');

/** @typedef {import('@nativegtm/server/releases/storeLayout').StoreLayout} StoreLayout */
/**
 * @typedef {{ id: string, remote: string, created: string, buildId: string, commit: string | null, dirty: boolean,
 *   hashedFiles: string[] }} ReleaseRecord
 *   hashedFiles: the content-hashed files it shares through assets/ (prune keeps those of the releases it keeps)
 * @typedef {{ at: string, passed: boolean, skipped?: boolean, checks: { name: string, ok: boolean,
 *   detail?: string }[] }} GateResult
 * @typedef {{ at: string, action: 'promote' | 'rollback', id: string, from: string | null }} LiveChange
 */

/**
 * Writes JSON whole: to a temporary name beside it, then renamed.
 * @param {string} file
 * @param {unknown} value
 */
function writeJsonAtomically(file, value) {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`);
  fs.renameSync(temporary, file);
}

/**
 * @template T
 * @param {string} file
 * @returns {T | undefined}
 */
function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * The releases in the store, oldest first: a release exists when its folder does (a publish renames it into place
 * last), with its record.
 * @param {StoreLayout} layout
 * @returns {ReleaseRecord[]}
 */
function listReleases(layout) {
  let names;
  try {
    names = fs.readdirSync(layout.dir);
  } catch {
    return [];
  }
  return names
    .filter((name) => RELEASE_ID.test(name))
    .map((id) => /** @type {ReleaseRecord | undefined} */ (readJson(layout.record(id))))
    .filter((record) => record !== undefined)
    .sort((a, b) => a.created.localeCompare(b.created) || a.id.localeCompare(b.id));
}

/**
 * @param {StoreLayout} layout
 * @param {string} id
 * @returns {ReleaseRecord | undefined}
 */
function readRecord(layout, id) {
  if (!hasRelease(layout, id)) return undefined;
  return readJson(layout.record(id));
}

/**
 * @param {StoreLayout} layout
 * @param {string} id
 * @returns {GateResult | undefined}
 */
const readGate = (layout, id) => readJson(layout.gate(id));

/**
 * @param {StoreLayout} layout
 * @param {string} id
 * @param {GateResult} result
 */
function writeGate(layout, id, result) {
  fs.mkdirSync(path.dirname(layout.gate(id)), { recursive: true });
  writeJsonAtomically(layout.gate(id), result);
}

/**
 * @param {StoreLayout} layout
 * @returns {LiveChange[]}
 */
function readHistory(layout) {
  let text;
  try {
    text = fs.readFileSync(layout.history, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .flatMap((line) => {
      try {
        return [JSON.parse(line)];
      } catch {
        return [];
      }
    });
}

/**
 * @param {StoreLayout} layout
 * @param {LiveChange} change
 */
function appendHistory(layout, change) {
  fs.appendFileSync(layout.history, `${JSON.stringify(change)}\n`);
}

/**
 * The releases that were live, most recent last, as rollbacks unwind them: a promote pushes, a rollback pops. The
 * last is the live one (when the pointer agrees); the one before it is what a rollback makes live.
 * @param {LiveChange[]} history
 */
function liveStack(history) {
  /** @type {string[]} */
  const stack = [];
  for (const change of history) {
    if (change.action === 'rollback') stack.pop();
    else if (stack[stack.length - 1] !== change.id) stack.push(change.id);
  }
  return stack;
}

/**
 * The live release, the previous one (what a rollback would make live), and the one the last change replaced (after
 * a rollback, the release rolled back from: someone may want it again).
 * @param {StoreLayout} layout
 */
function liveAndPrevious(layout) {
  const pointer = readLivePointer(layout);
  const history = readHistory(layout);
  const stack = liveStack(history);
  // The pointer is the truth; the history says what came before it.
  const at = pointer.id ? stack.lastIndexOf(pointer.id) : -1;
  const previous = at > 0 ? stack[at - 1] : undefined;
  const replaced = history[history.length - 1]?.from ?? undefined;
  return { live: pointer.id, problem: pointer.problem, previous, replaced };
}

module.exports = {
  writeJsonAtomically,
  listReleases,
  readRecord,
  readGate,
  writeGate,
  readHistory,
  appendHistory,
  liveAndPrevious,
};
