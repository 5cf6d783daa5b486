const { createJestProject } = require('@nativegtm/build/jest');

module.exports = createJestProject({ packageDir: __dirname, displayName: 'jobs-mfe' });
