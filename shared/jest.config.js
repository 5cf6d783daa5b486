const { createJestProject } = require('./build/jest');

const project = createJestProject({ packageDir: __dirname, displayName: 'shared' });

// The servers' and the build's modules (plain JavaScript) are tested beside them too.
module.exports = {
  ...project,
  roots: ['<rootDir>'],
  testMatch: [...project.testMatch, '**/server/**/*.test.js', '**/build/**/*.test.js', '<rootDir>/*.test.js'],
};
