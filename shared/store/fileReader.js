// A file read from disk again only when it changed: the servers read the shell's template and remotes.json on every
// document request, and both can be replaced under them. Whether it changed is asked of the file system at most every
// CHECK_INTERVAL_MS, so an edit shows within that time: a stat per file per request was a quarter of a document's
// cost under load.
const fs = require('node:fs');

/** How long a file's last look at the disk stands. */
const CHECK_INTERVAL_MS = 200;

/**
 * `(file) => transform(contents)`, or undefined while the file does not exist.
 * @template T
 * @param {(contents: string) => T} transform
 * @param {{ checkIntervalMs?: number, now?: () => number }} [options]
 * @returns {(file: string) => T | undefined}
 */
function fileReader(transform, { checkIntervalMs = CHECK_INTERVAL_MS, now = Date.now } = {}) {
  /** @type {Map<string, { checkedAt: number, mtimeMs: number, size: number, value: T | undefined }>} */
  const cache = new Map();
  return (file) => {
    const time = now();
    const cached = cache.get(file);
    if (cached && time - cached.checkedAt < checkIntervalMs) return cached.value;
    let stats;
    try {
      stats = fs.statSync(file);
    } catch {
      cache.set(file, { checkedAt: time, mtimeMs: -1, size: -1, value: undefined });
      return undefined;
    }
    if (cached?.mtimeMs === stats.mtimeMs && cached.size === stats.size) {
      cached.checkedAt = time;
      return cached.value;
    }
    const value = transform(fs.readFileSync(file, 'utf8'));
    cache.set(file, { checkedAt: time, mtimeMs: stats.mtimeMs, size: stats.size, value });
    return value;
  };
}

/**
 * `look()`'s answer, asked for again at most every `checkIntervalMs`: for what a server reads of the disk on every
 * request but must see change within that time (the release store's pointers).
 * @template T
 * @param {() => T} look
 * @param {{ checkIntervalMs?: number, now?: () => number }} [options]
 * @returns {() => T}
 */
function lookedAtMostEvery(look, { checkIntervalMs = CHECK_INTERVAL_MS, now = Date.now } = {}) {
  /** @type {{ value: T } | undefined} */
  let last;
  let lookedAt = -Infinity;
  return () => {
    const time = now();
    if (!last || time - lookedAt >= checkIntervalMs) {
      lookedAt = time;
      last = { value: look() };
    }
    return last.value;
  };
}

module.exports = { fileReader, lookedAtMostEvery, CHECK_INTERVAL_MS };
