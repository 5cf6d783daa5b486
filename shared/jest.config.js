const { createJestProject } = require('./build/jest');

const project = createJestProject({ packageDir: __dirname, displayName: 'shared' });

// The servers' modules (plain CommonJS, run by Node) are tested beside them too.
module.exports = {
  ...project,
  roots: [...project.roots, '<rootDir>/server'],
  testMatch: [...project.testMatch, '**/*.test.js'],
};
