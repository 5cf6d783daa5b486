// A release's files in the bucket against its row (./postgresBackend.js). A prune deletes the files of the releases
// it removed only once its change committed (a change refused must leave them), so in between a publish of the same
// build (the same id) can upload them again and record the release, and the prune's deletes would then take the
// files of a recorded release: the review found it. Both therefore run under one lock per release, a
// transaction-level advisory lock on its remote and id:
//
// - the prune deletes a release's files only while, under the lock, no row records it;
// - a publish records a release only while, under the lock, every file it names is in the bucket; otherwise it is
//   refused (ReleaseFilesGone) and uploads them again.
//
// A row committed under the lock is seen by the next holder, so once a release is recorded no prune deletes its
// files, and whatever a prune deleted before, the publish finds missing. Checking the row without the lock would not
// do: the publish's uploads are not under it, and could land between a prune's look and its delete. The lock is the
// release's, not the remote's row: a prune's deletes keep no other change, and no canary's lease renewal, waiting.
// A publish takes it before the remote's row (lockRelease, then checkUploaded under it), so that while it waits for
// a prune's deletes it holds nothing else either.
const { createHash } = require('node:crypto');
const { StoreConflict } = require('../storeRefusal');

/** The first key of every release's lock (any number no other lock of ours uses); the second is its remote and id's. */
const RELEASE_LOCK = 0x6e677266;

/** A release's files went from the bucket after its publish uploaded them (a prune took them): nothing was recorded. */
class ReleaseFilesGone extends StoreConflict {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'ReleaseFilesGone';
  }
}

/**
 * Holds the release's lock until the transaction ends.
 * @param {import('pg').PoolClient} client
 * @param {string} remote
 * @param {string} id
 */
async function lockRelease(client, remote, id) {
  const key = createHash('sha256').update(`${remote}/${id}`).digest().readInt32BE(0);
  await client.query('SELECT pg_advisory_xact_lock($1, $2)', [RELEASE_LOCK, key]);
}

/**
 * In the transaction recording the release: refuses unless every file it names is in the bucket, under its lock.
 * @param {import('pg').PoolClient} client
 * @param {import('./objectStore').ObjectStore} objects
 * @param {string} remote
 * @param {string} id
 * @param {{ path: string }[]} files
 */
async function checkUploaded(client, objects, remote, id, files) {
  await lockRelease(client, remote, id);
  const prefix = `${remote}/${id}/`;
  const there = new Set((await objects.list(prefix)).map((object) => object.name.slice(prefix.length)));
  const missing = files.filter((file) => !there.has(file.path));
  if (missing.length > 0) {
    throw new ReleaseFilesGone(
      `${missing.length} of the files of release ${id} of ${remote} went from ${objects.where} while it was ` +
        `published (a prune took them), among them ${missing[0]?.path}. Nothing was recorded; publish it again.`,
    );
  }
}

/**
 * Deletes files of a release, unless a row records it when its lock is held: a publish recorded it again since.
 * @param {import('./database').Database} database
 * @param {import('./objectStore').ObjectStore} objects
 * @param {string} remote
 * @param {string} id
 * @param {string[]} names the objects, as listed
 */
async function removeUnrecorded(database, objects, remote, id, names) {
  await database.transaction(async (client) => {
    await lockRelease(client, remote, id);
    const { rows } = await client.query('SELECT 1 FROM releases WHERE remote = $1 AND id = $2', [remote, id]);
    if (rows.length > 0) return;
    for (const name of names) await objects.remove(name);
  });
}

module.exports = { ReleaseFilesGone, checkUploaded, lockRelease, removeUnrecorded };
