const { randomBytes } = require('node:crypto');

/**
 * New for every build: server-rendered HTML is only hydrated by JavaScript with the same id
 * (shared/design-system/src/buildId.ts).
 * @returns {string}
 */
function newBuildId() {
  return `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

module.exports = { newBuildId };
