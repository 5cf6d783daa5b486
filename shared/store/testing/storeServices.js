// The services of a store on PostgreSQL, for a test: a PostgreSQL server (postgres.js) and object storage
// (objectStorage.js), started together, with the AWS SDK's environment pointing at the storage, as it would on a
// node; stop() stops both and puts the environment back.
const { startPostgres } = require('./postgres');
const { startObjectStorage } = require('./objectStorage');

/**
 * @param {{ S3rver: typeof import('s3rver') }} options the test's s3rver (objectStorage.js says why)
 */
async function startStoreServices({ S3rver }) {
  const [started, stored] = await Promise.allSettled([startPostgres(), startObjectStorage({ S3rver })]);
  if (started.status === 'rejected' || stored.status === 'rejected') {
    // The one that started is stopped, with its folder: the caller gets the error and nothing to stop.
    if (started.status === 'fulfilled') started.value.remove();
    if (stored.status === 'fulfilled') await stored.value.stop();
    throw started.status === 'rejected' ? started.reason : /** @type {PromiseRejectedResult} */ (stored).reason;
  }
  const [postgres, storage] = [started.value, stored.value];
  const saved = { ...process.env };
  Object.assign(process.env, storage.env);
  return {
    postgres,
    storage,
    stop: async () => {
      postgres.remove();
      await storage.stop();
      process.env = saved;
    },
  };
}

module.exports = { startStoreServices };
