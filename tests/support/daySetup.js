// Before "A day on the jobs team" (jest.day.config.js), which `npm test` runs first: the programs its commands need
// on a fresh machine. `npm run check` runs the store's tests (PostgreSQL) and the release gate (Chromium); without
// this they would be installed only later, by the integration tests' set-up (globalSetup.js).
const { ensureSystemTools, toolsNamed } = require('./systemTools');

module.exports = async function daySetup() {
  ensureSystemTools({
    tools: toolsNamed(['Chromium', 'PostgreSQL']),
    purpose: "the jobs team's day",
    log: (line) => process.stdout.write(`\n${line}`),
  });
};
