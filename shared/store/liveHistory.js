// What the store says about which release of a remote was live before: <store>/<remote>/history.jsonl, one line per
// change of the live pointer, appended by the release commands (@nativegtm/tools). Read here, beside the pointer,
// because the servers' status page needs the previous release too and the servers never import the tools.
const fs = require('node:fs');
const { RELEASE_ID } = require('@nativegtm/contract/releases');
const { readLivePointer } = require('./livePointer');

/** @typedef {import('./layout').StoreLayout} StoreLayout */
/**
 * One change of the live pointer; by: who made it (actor.js), on lines written since changes name it.
 * @typedef {{ at: string, action: 'promote' | 'rollback', id: string, from: string | null, by?: string }} LiveChange
 */

/**
 * A JSON-lines file's values, oldest first (none when it is missing). A line that does not parse (cut short by a
 * crash; the next append starts on a line of its own) is skipped.
 * @param {string} file
 * @returns {any[]}
 */
function readJsonLines(file) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
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

/** @param {unknown} id */
const isReleaseId = (id) => typeof id === 'string' && RELEASE_ID.test(id);

/**
 * Whether a history line is a change this version writes: anything else (a hand edit, a line of another file) is
 * skipped as a torn one is.
 * @param {any} change
 * @returns {change is LiveChange}
 */
const isLiveChange = (change) =>
  (change?.action === 'promote' || change?.action === 'rollback') &&
  typeof change.at === 'string' &&
  isReleaseId(change.id) &&
  (change.from === null || isReleaseId(change.from)) &&
  (change.by === undefined || typeof change.by === 'string');

/**
 * Every change of the live pointer, oldest first.
 * @param {StoreLayout} layout
 * @returns {LiveChange[]}
 */
const readHistory = (layout) => readJsonLines(layout.history).filter(isLiveChange);

/**
 * The releases that were live, most recent last, as rollbacks unwind them: a promote pushes, a rollback pops. The
 * last is the live one (when the pointer agrees); the one before it is what a rollback makes live. Each change also
 * names the release live before it (`from`), which stands in for a change whose line was lost (cut short by a crash):
 * a promote from a release the stack does not end with pushes that release first.
 * @param {LiveChange[]} history
 */
function liveStack(history) {
  /** @type {string[]} */
  const stack = [];
  const top = () => stack[stack.length - 1];
  for (const change of history) {
    if (change.action === 'rollback') {
      if (top() === change.from) stack.pop();
    } else if (change.from !== null && top() !== change.from) {
      stack.push(change.from);
    }
    if (top() !== change.id) stack.push(change.id);
  }
  return stack;
}

/**
 * The live release, the previous one (what a rollback would make live), and the one the last change replaced (after
 * a rollback, the release rolled back from: someone may want it again), from the pointer and the history.
 * @param {{ id?: string, problem?: string }} pointer
 * @param {LiveChange[]} history
 */
function liveAndPreviousOf(pointer, history) {
  const stack = liveStack(history);
  // The pointer is the truth; the history says what came before it.
  const at = pointer.id ? stack.lastIndexOf(pointer.id) : -1;
  const previous = at > 0 ? stack[at - 1] : undefined;
  const replaced = history[history.length - 1]?.from ?? undefined;
  return { live: pointer.id, problem: pointer.problem, previous, replaced };
}

/**
 * The same, of a store folder.
 * @param {StoreLayout} layout
 */
const liveAndPrevious = (layout) => liveAndPreviousOf(readLivePointer(layout), readHistory(layout));

module.exports = { readJsonLines, readHistory, isLiveChange, liveAndPrevious, liveAndPreviousOf };
