// A change the store refused, saying why in one line; nothing was changed. The release commands print it and exit 1
// (@nativegtm/server/commandLine's convention), as they do any refusal.
class StoreRefusal extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'StoreRefusal';
  }
}

module.exports = { StoreRefusal };
