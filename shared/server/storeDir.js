// Where the release store is on this machine: the folder configured (RELEASES_DIR), or releases/ at the repository's
// root. Its layout is @nativegtm/store/layout.
const path = require('node:path');
const { repoRoot } = require('./deployables');

/**
 * @param {string} [configured]
 */
function storeDir(configured) {
  return path.resolve(configured ?? path.join(repoRoot, 'releases'));
}

module.exports = { storeDir };
