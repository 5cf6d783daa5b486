// The specs in specs/ that start nothing (no site, server or browser): they call plain functions, read the
// repository's files, or start a shell. Jest runs them as a project of their own (jest.unit.config.js), without the integration tests'
// global setup, which builds and serves the site: `npm run test:unit` runs them, in a second or two.
const UNIT_SPECS = [
  'benchReport.test.ts',
  'benchCompare.test.ts',
  'history.test.ts',
  'readmeFigures.test.ts',
  'stopProcess.test.ts',
  'waitForPort.test.ts',
];

module.exports = { UNIT_SPECS };
