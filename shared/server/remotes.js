// remotes.json as the servers read it: only entries the shell itself would load (a well-formed http(s) URL) count,
// so the document server never fetches from anywhere else, and the CSP never allows more.

/** { remote: manifest URL } of the valid entries of a parsed remotes.json; {} for anything but an object. */
function validRemotes(remotes) {
  if (typeof remotes !== 'object' || remotes === null || Array.isArray(remotes)) return {};
  const valid = {};
  for (const [name, value] of Object.entries(remotes)) {
    if (typeof value !== 'string') continue;
    try {
      const url = new URL(value);
      if (url.protocol === 'http:' || url.protocol === 'https:') valid[name] = url.href;
    } catch {
      // A malformed entry disables that remote, as in the shell.
    }
  }
  return valid;
}

/** The same, from the file's text; {} for a file that is not JSON. */
function readRemotes(json) {
  try {
    return validRemotes(JSON.parse(json));
  } catch {
    return {};
  }
}

module.exports = { validRemotes, readRemotes };
