// What a canary test starts from: a remote with one release live and another published beside it.
const { fakeBuild } = require('./fakeBuild');

/**
 * Publishes two fake builds of the remote and makes the first live.
 * @param {import('../remoteStore').RemoteStore} store
 * @returns {Promise<{ live: string, next: string }>} their release ids
 */
async function liveAndNext(store) {
  const source = { commit: 'abc', dirty: false };
  const publish = async (/** @type {string} */ id) =>
    (await store.publish(fakeBuild({ buildId: id, chunk: `${id}.0123456789.js` }), source)).id;
  const live = await publish('a');
  const next = await publish('b');
  await store.promote(live, { gate: null });
  return { live, next };
}

module.exports = { liveAndNext };
