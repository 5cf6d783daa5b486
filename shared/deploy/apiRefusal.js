// A refusal of the deploy API's own (not the store's), with the HTTP status it is answered with.

class ApiRefusal extends Error {
  /** @param {number} status @param {string} message */
  constructor(status, message) {
    super(message);
    this.name = 'ApiRefusal';
    this.status = status;
  }
}

module.exports = { ApiRefusal };
