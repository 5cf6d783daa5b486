// The gate a promote or a canary runs, as the commands and the deploy API both give it to the store: the release
// composed with the live site, checked in headless Chromium; or none, when the gate is skipped.
/**
 * @param {{ skip: boolean, storeDir: string, remote: string, chromiumPath: string }} options
 * @returns {import('@nativegtm/store/operations').Gate | null}
 */
function gateFor({ skip, storeDir, remote, chromiumPath }) {
  if (skip) return null;
  return (releaseDir) => {
    // Required only when it runs: it loads Playwright, half a second of a command that is otherwise instant.
    const { runGate } = require('./runGate');
    return runGate({ storeDir, remote, releaseDir, chromiumPath });
  };
}

/**
 * The gate, saying `line` on stderr when it starts (a gate is minutes of silence otherwise).
 * @param {import('@nativegtm/store/operations').Gate | null} gate
 * @param {string} line
 * @returns {import('@nativegtm/store/operations').Gate | null}
 */
function announced(gate, line) {
  return (
    gate &&
    ((releaseDir) => {
      console.error(line);
      return gate(releaseDir);
    })
  );
}

module.exports = { gateFor, announced };
