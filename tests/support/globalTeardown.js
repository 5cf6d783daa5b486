module.exports = async function globalTeardown() {
  await /** @type {import('./globalSetup').SetupGlobals} */ (globalThis).__SITE__?.stop();
};
