module.exports = async function globalTeardown() {
  await globalThis.__SITE__?.stop();
};
