// The integrity of what a build writes (@nativegtm/contract/integrity says which files and in which form): each
// file's, and the deployable's integrity.json.
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const {
  INTEGRITY_ALGORITHM,
  INTEGRITY_FILE,
  fragmentIntegrityFor,
  integrityListFor,
  isFragmentFile,
} = require('@nativegtm/contract/integrity');
const { fragmentPaths } = require('@nativegtm/contract/fragments');

/**
 * The base64 of the digest of a file's bytes.
 * @param {Buffer | string} bytes
 */
const digestOf = (bytes) => createHash(INTEGRITY_ALGORITHM).update(bytes).digest('base64');

/**
 * @param {Buffer | string} bytes
 * @returns {string} `sha384-<base64>`
 */
const integrityOf = (bytes) => `${INTEGRITY_ALGORITHM}-${digestOf(bytes)}`;

/**
 * A build folder's files, relative to it with "/".
 * @param {string} dir
 */
const filesOf = (dir) =>
  /** @type {string[]} */ (fs.readdirSync(dir, { recursive: true }))
    .filter((name) => fs.statSync(path.join(dir, name)).isFile())
    .map((name) => name.split(path.sep).join('/'));

/** @param {string} dir */
const fileDigest = (dir) => (/** @type {string} */ file) => digestOf(fs.readFileSync(path.join(dir, file)));

/**
 * The integrity list of a build's folder as its files are now.
 * @param {string} dir
 * @returns {Record<string, string>}
 */
const integrityListOf = (dir) => integrityListFor(filesOf(dir), fileDigest(dir));

/**
 * The list of the build's server-rendered files as they are now, which its ssr/manifest.json carries.
 * @param {string} dir
 * @returns {Record<string, string>}
 */
const fragmentIntegrityListOf = (dir) => fragmentIntegrityFor(filesOf(dir), fileDigest(dir));

/**
 * Writes the build's integrity.json for its files as they are now: what a build does last (and a test that changes
 * a build's files, as a new build of it would).
 * @param {string} dir
 * @returns {Record<string, string>} the list written
 */
function writeIntegrityList(dir) {
  const list = integrityListOf(dir);
  fs.writeFileSync(path.join(dir, INTEGRITY_FILE), `${JSON.stringify(list, null, 2)}\n`);
  return list;
}

/**
 * Changes one file of a build as a build of the new bytes would have written it: its precompressed copies made again
 * from them, and the build's integrity lists written again (a server-rendered file's in ssr/manifest.json first). For tests that make a release differ from another without
 * a second webpack build.
 * @param {string} dir
 * @param {string} file relative to dir
 * @param {string | Buffer} bytes
 */
function rewriteBuildFile(dir, file, bytes) {
  const target = path.join(dir, file);
  fs.writeFileSync(target, bytes);
  if (fs.existsSync(`${target}.gz`)) fs.writeFileSync(`${target}.gz`, zlib.gzipSync(bytes));
  if (fs.existsSync(`${target}.br`)) fs.writeFileSync(`${target}.br`, zlib.brotliCompressSync(bytes));
  if (isFragmentFile(file)) writeFragmentIntegrity(dir);
  writeIntegrityList(dir);
}

/**
 * Writes the build's ssr/manifest.json again with the integrity of its server-rendered files as they are now.
 * @param {string} dir
 */
function writeFragmentIntegrity(dir) {
  const file = path.join(dir, fragmentPaths.manifest);
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
  fs.writeFileSync(file, JSON.stringify({ ...manifest, integrity: fragmentIntegrityListOf(dir) }));
}

module.exports = { fragmentIntegrityListOf, integrityOf, rewriteBuildFile, writeFragmentIntegrity, writeIntegrityList };
