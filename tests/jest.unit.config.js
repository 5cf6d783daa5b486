// The specs that start nothing (support/unitSpecs.js), as unit tests: no site, no browser, no global setup.
const { FUZZ_SEED, TS_TRANSFORM } = require('@nativegtm/build/jest');
const { UNIT_SPECS } = require('./support/unitSpecs');

module.exports = {
  displayName: 'tests',
  rootDir: __dirname,
  testEnvironment: 'node',
  testMatch: UNIT_SPECS.map((name) => `<rootDir>/specs/${name}`),
  setupFiles: [FUZZ_SEED],
  transform: { '^.+\\.ts$': TS_TRANSFORM },
};
