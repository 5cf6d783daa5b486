// Browser integration tests: they build what is not built, serve the composed site with the same code as
// `npm start` (on test ports, so a running `npm start` is not disturbed) and drive Chromium with playwright-core;
// engines.test.ts also drives Firefox and WebKit (support/engines/). The specs that start nothing are unit tests
// (jest.unit.config.js).
const { FUZZ_SEED, TS_TRANSFORM } = require('@nativegtm/build/jest');
const { UNIT_SPECS } = require('./support/unitSpecs');

module.exports = {
  displayName: 'integration',
  rootDir: __dirname,
  testEnvironment: 'node',
  testMatch: ['<rootDir>/specs/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', ...UNIT_SPECS.map((name) => `/specs/${name.replaceAll('.', '\\.')}$`)],
  globalSetup: '<rootDir>/support/globalSetup.js',
  globalTeardown: '<rootDir>/support/globalTeardown.js',
  setupFiles: [FUZZ_SEED],
  setupFilesAfterEnv: ['<rootDir>/support/setup.ts'],
  transform: { '^.+\\.ts$': TS_TRANSFORM },
};
