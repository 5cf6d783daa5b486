const { createJestProject } = require('./build/jest');

module.exports = createJestProject({ packageDir: __dirname, displayName: 'shared' });
