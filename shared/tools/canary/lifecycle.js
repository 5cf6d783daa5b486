// The canary command's changes to the store (@nativegtm/store/canaryChanges), each followed by telling every nginx
// serving the store to read the canary as the store now has it (nginx/reload.js): the built-in servers read the store
// themselves, nginx only when it loads its configuration.
const path = require('node:path');
const changes = require('@nativegtm/store/canaryChanges');
const { ReleaseError } = require('@nativegtm/store/operations');
const { NginxReloadError, reloadNginx } = require('../nginx/reload');

/** @typedef {import('@nativegtm/store/layout').StoreLayout} StoreLayout */

/**
 * Makes every nginx serving the store read the remote's canary as the store has it now; a failure is the command's
 * one-line refusal.
 * @param {StoreLayout} layout
 */
async function nginxReads(layout) {
  try {
    await reloadNginx(path.dirname(layout.dir));
  } catch (error) {
    if (error instanceof NginxReloadError) throw new ReleaseError(error.message);
    throw error;
  }
}

/**
 * Starts the canary (changes.startCanary); if nginx cannot be told, it is withdrawn: served by the built-in server
 * and not by nginx, it would be judged on a part of its visitors.
 * @param {StoreLayout} layout
 * @param {string} remote
 * @param {string} id
 * @param {Parameters<typeof changes.startCanary>[3]} options
 */
async function startCanary(layout, remote, id, options) {
  const state = await changes.startCanary(layout, remote, id, options);
  try {
    await nginxReads(layout);
  } catch (error) {
    await changes.withdrawCanary(layout, remote, id);
    await nginxReads(layout).catch(() => {});
    throw new ReleaseError(`no canary started: ${error instanceof Error ? error.message : error}`);
  }
  return state;
}

/**
 * A change of the store, then nginx told of it.
 * @template {unknown[]} A
 * @template T
 * @param {(layout: StoreLayout, ...rest: A) => Promise<T>} change
 * @returns {(layout: StoreLayout, ...rest: A) => Promise<T>}
 */
const thenNginx =
  (change) =>
  async (layout, ...rest) => {
    const result = await change(layout, ...rest);
    await nginxReads(layout);
    return result;
  };

module.exports = {
  startCanary,
  advanceCanary: thenNginx(changes.advanceCanary),
  finishCanary: thenNginx(changes.finishCanary),
  abortCanary: thenNginx(changes.abortCanary),
};
