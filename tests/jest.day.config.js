// "A day on the jobs team" (CONTRIBUTING.md): the section's commands, run as written. Its own project, which `npm test`
// runs before every other: `npm run check -- jobs` rebuilds jobs-mfe/dist, which the integration suites serve.
const { TS_TRANSFORM } = require('@nativegtm/build/jest');

module.exports = {
  displayName: 'team-day',
  rootDir: __dirname,
  testEnvironment: 'node',
  globalSetup: '<rootDir>/support/daySetup.js',
  testMatch: ['<rootDir>/day/**/*.test.ts'],
  transform: { '^.+\\.ts$': TS_TRANSFORM },
};
