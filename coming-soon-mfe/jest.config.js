const { createJestProject } = require('@nativegtm/shared/build/jest.js');

module.exports = createJestProject({ packageDir: __dirname, displayName: 'coming-soon-mfe' });
