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
  return {
    where: dir,
    /**
     * @param {string} remote
     * @param {{ actor?: import('./actor').Actor }} [as] actor: who makes the changes (this process's user and host
     *   unless given: the deploy API names each request's credential)
     */
    remote: (remote, { actor } = {}) => remoteStore(folderBackend(dir, remote, { ...options, actor })),
  };
}

module.exports = { openFolderStore };
