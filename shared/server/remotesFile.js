// The shell's remotes.json, as every part of the server uses it: the composer (each remote's base URL), the CSP
// (the remotes' origins), /readyz, previews (the file rewritten for one release) and /remotes.json itself. One
// reader per server, re-reading the file only when it changes (fileReader.js), and validating it once per change with
// the contract's rule (readRemotesConfig), so every use agrees on what the file says.
const { readRemotesConfig } = require('@nativegtm/contract/remotesConfig');
const { fileReader } = require('@nativegtm/store/fileReader');

/** @typedef {Partial<Record<string, string>>} RemoteEntries each valid entry: remote name to manifest URL */

/**
 * @param {string} file remotes.json's path: REMOTES_FILE, or the shell's dist/remotes.json
 */
function createRemotesFile(file) {
  const read = fileReader((text) => ({
    text,
    entries: /** @type {RemoteEntries} */ (readRemotesConfig(text)),
  }));
  return {
    file,
    /** The file's valid entries, or undefined while it cannot be read. */
    entries: () => read(file)?.entries,
    /** The file's text as it is on disk (what browsers are sent), or undefined while it cannot be read. */
    text: () => read(file)?.text,
  };
}

/** @typedef {ReturnType<typeof createRemotesFile>} RemotesFile */

module.exports = { createRemotesFile };
