// A release command that could not write the store because the file system refused every write of that kind (full,
// over quota, read-only) stops with one line saying so. Each change it makes counts only once it is whole on disk and
// is undone when a later step of the same change fails (./durableFiles), so it has changed nothing.
const { StoreRefusal } = require('./storeRefusal');

/** What each code means, said of the store. */
const REASONS = /** @type {Record<string, string>} */ ({
  ENOSPC: 'its disk is full',
  EDQUOT: 'its disk quota is used up',
  EROFS: 'its file system is read-only',
});

class StoreWriteError extends StoreRefusal {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'StoreWriteError';
  }
}

/**
 * The refusal for an error that says the store at `dir` cannot be written, or the error itself.
 * @param {unknown} error
 * @param {string} dir
 */
function asStoreWriteError(error, dir) {
  const code = /** @type {NodeJS.ErrnoException} */ (error)?.code;
  const reason = code === undefined ? undefined : REASONS[code];
  if (reason === undefined) return error;
  return new StoreWriteError(
    `the release store at ${dir} cannot be written: ${reason} (${code}). Nothing was changed; ` +
      'free some space and run the command again.',
  );
}

module.exports = { asStoreWriteError };
