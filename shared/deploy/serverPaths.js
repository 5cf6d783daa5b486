// What the deploy API's answers may not show: where things are on its machine. The store, the gate and the canary
// name the files they read in their messages, for the operator who runs a command where the store is; to a pipeline
// those paths say nothing it can act on and tell how the server is laid out. Each of the server's own places (the
// store's folder, the field data's, the scratch folders', the install's, its user's home, the gate's browser) is put
// in every answer as its name in angle brackets, what follows it kept: `<store>/jobs/0123456789abcdef has no
// server-rendered page`. Those are the places the store's, the gate's and the canary's messages name; a path outside
// them (a system file a browser's crash names, say) would still show.
const fs = require('node:fs');

/** A regular expression's text that matches `text` literally. @param {string} text */
const literal = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A function that puts each place's name for the place in a text.
 * @param {Record<string, string | undefined>} places name → the absolute path of a folder or file
 * @returns {(text: string) => string}
 */
function pathHider(places) {
  /** @type {{ path: string, name: string }[]} */
  const found = [];
  for (const [name, place] of Object.entries(places)) {
    if (!place || place === '/') continue;
    const trimmed = place.replace(/\/+$/, '');
    found.push({ path: trimmed, name });
    // A place reached through a link (macOS's /tmp) is named in messages by either path.
    try {
      const real = fs.realpathSync(trimmed);
      if (real !== trimmed) found.push({ path: real, name });
    } catch {
      // Not there (yet): named by the path given only.
    }
  }
  if (found.length === 0) return (text) => text;
  // The longest first: a store inside the scratch folder (a test's) is the store.
  found.sort((a, b) => b.path.length - a.path.length);
  const names = new Map(found.map(({ path, name }) => [path, name]));
  // A place's path, whole: not the end of a longer one (a URL's `/tmp` in `http://host/tmp/x`), nor the start of a
  // longer name (`/srv/store` in `/srv/store2`).
  const alternatives = found.map(({ path }) => literal(path)).join('|');
  const pattern = new RegExp(`(?<![\\w./-])(${alternatives})(?![\\w-]|\\.\\w)`, 'g');
  return (text) => text.replace(pattern, (path) => `<${names.get(path)}>`);
}

module.exports = { pathHider };
