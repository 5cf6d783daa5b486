// A change the store refused, saying why in one line; nothing was changed. The release commands print it and exit 1
// (@nativegtm/server/commandLine's convention), as they do any refusal.
class StoreRefusal extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'StoreRefusal';
  }
}

/** Another change of the same remote was made while this one ran (a database's revision check): it won. */
class StoreConflict extends StoreRefusal {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'StoreConflict';
  }
}

/** The store cannot be reached (its database is down): nothing was changed. */
class StoreUnavailable extends StoreRefusal {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'StoreUnavailable';
  }
}

module.exports = { StoreRefusal, StoreConflict, StoreUnavailable };
