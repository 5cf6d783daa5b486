// How the build names its output, and how the servers tell what a path is from its name: content-hashed files never
// change under their name (cached for a year), other files are revalidated, and a path without an extension is a
// document (a page route). The build writes these names; the built-in server and nginx's configuration read them.

/** Hex digits of the content hash in a hashed file name (`main.0123456789.js`). */
const CONTENT_HASH_LENGTH = 10;

/** A content-hashed script or stylesheet. */
const HASHED_ASSET = new RegExp(`\\.[0-9a-f]{${CONTENT_HASH_LENGTH}}\\.(js|css)$`);

/** A path with a file extension is a file: missing means 404, never a page. */
const FILE_EXTENSION = /\.[A-Za-z0-9]+$/;

module.exports = { CONTENT_HASH_LENGTH, HASHED_ASSET, FILE_EXTENSION };
