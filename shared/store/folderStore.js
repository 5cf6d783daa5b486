// The store in a folder (layout.js), as the release commands use it: a RemoteStore (remoteStore.js) per remote on the
// folder backend (folderBackend.js). Both servers read the same folder themselves (livePointer.js, canaryInStore.js);
// an nginx serving it is told of a canary's change through `onCanaryChange`, which the commands give.
const { folderBackend } = require('./folderBackend');
const { remoteStore } = require('./remoteStore');

/**
 * @param {string} dir the store's folder
 * @param {{ onCanaryChange?: () => Promise<void> }} [options] onCanaryChange: after each change of a canary
 */
function openFolderStore(dir, options = {}) {
  return { where: dir, remote: (/** @type {string} */ remote) => remoteStore(folderBackend(dir, remote, options)) };
}

module.exports = { openFolderStore };
