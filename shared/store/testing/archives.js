// A .tar.gz of any entries, as a client could forge it: symbolic and hard links, devices, paths out of the folder.
// For the tests of what unpacks a published archive (the store's, the deploy API's).
const { gzipSync } = require('node:zlib');
const tar = require('tar-stream');

/**
 * @param {(Record<string, unknown> & { name: string, body?: string | Buffer })[]} entries tar headers, each with its
 *   body (a `pax` header object is written as a pax header before the entry)
 * @param {{ after?: Buffer }} [options] after: bytes past the archive's end, compressed with it (zero blocks, say)
 * @returns {Promise<Buffer>}
 */
async function archiveOf(entries, { after = Buffer.alloc(0) } = {}) {
  const pack = tar.pack();
  /** @type {Buffer[]} */
  const chunks = [];
  pack.on('data', (/** @type {any} */ chunk) => void chunks.push(chunk));
  const done = new Promise((resolve) => pack.on('end', () => resolve(undefined)));
  for (const { body, ...header } of entries) {
    await new Promise((resolve, reject) =>
      pack.entry(/** @type {any} */ (header), body ?? '', (error) => (error ? reject(error) : resolve(undefined))),
    );
  }
  pack.finalize();
  await done;
  return gzipSync(Buffer.concat([...chunks, after]));
}

module.exports = { archiveOf };
