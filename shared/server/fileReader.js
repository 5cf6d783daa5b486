// A file read from disk again only when it changed (stat per call, read and parse only after an edit): the servers
// read the shell's template and remotes.json on every document request, and both can be replaced under them.
const fs = require('node:fs');

/**
 * `(file) => transform(contents)`, or undefined while the file does not exist.
 * @template T
 * @param {(contents: string) => T} transform
 * @returns {(file: string) => T | undefined}
 */
function fileReader(transform) {
  /** @type {Map<string, { mtimeMs: number, size: number, value: T }>} */
  const cache = new Map();
  return (file) => {
    let stats;
    try {
      stats = fs.statSync(file);
    } catch {
      return undefined;
    }
    const cached = cache.get(file);
    if (cached?.mtimeMs === stats.mtimeMs && cached.size === stats.size) return cached.value;
    const value = transform(fs.readFileSync(file, 'utf8'));
    cache.set(file, { mtimeMs: stats.mtimeMs, size: stats.size, value });
    return value;
  };
}

module.exports = { fileReader };
