const { createNodeJestProject } = require('@nativegtm/build/jest');

module.exports = createNodeJestProject({ packageDir: __dirname, displayName: 'deploy' });
