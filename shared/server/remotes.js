// remotes.json as the servers read it: only entries the shell itself would load (a well-formed http(s) URL) count,
// so the document server never fetches from anywhere else, and the CSP never allows more.

/** { remote: manifest URL } of the valid entries; {} for a file that is not a JSON object. */
function readRemotes(json) {
  let parsed;
  try {
    parsed = JSON.parse(json);
  } catch {
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
  const remotes = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (typeof value !== 'string') continue;
    try {
      const url = new URL(value);
      if (url.protocol === 'http:' || url.protocol === 'https:') remotes[name] = url.href;
    } catch {
      // A malformed entry disables that remote, as in the shell.
    }
  }
  return remotes;
}

module.exports = { readRemotes };
