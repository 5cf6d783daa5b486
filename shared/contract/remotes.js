// The page remotes by name: what the shell loads and remotes.json lists.
const { pages } = require('./pages');

/** @typedef {import('./pages').RemoteName} RemoteName */

/** Every page remote's name, from the registry of pages. */
const remoteNames = /** @type {readonly RemoteName[]} */ (pages.map((page) => page.remote));

/**
 * @param {string} value
 * @returns {value is RemoteName}
 */
function isRemoteName(value) {
  return /** @type {readonly string[]} */ (remoteNames).includes(value);
}

/** The module a page remote exposes and the shell loads: `<remote>/Page`. */
const exposedPage = './Page';

module.exports = { remoteNames, isRemoteName, exposedPage };
