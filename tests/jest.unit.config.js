// The specs that start nothing (support/unitSpecs.js), as unit tests: no site, no browser, no global setup.
const path = require('node:path');
const { FUZZ_SEED } = require('@nativegtm/build/jest');
const { UNIT_SPECS } = require('./support/unitSpecs');

module.exports = {
  displayName: 'tests',
  rootDir: __dirname,
  testEnvironment: 'node',
  testMatch: UNIT_SPECS.map((name) => `<rootDir>/specs/${name}`),
  setupFiles: [FUZZ_SEED],
  transform: {
    '^.+\\.ts$': [
      'ts-jest',
      { tsconfig: path.join(__dirname, '../shared/build/tsconfig.jest.json'), diagnostics: false },
    ],
  },
};
