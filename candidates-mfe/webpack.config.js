const { createRemoteConfig } = require('@nativegtm/shared/build/webpack.js');

module.exports = (_env, argv) =>
  createRemoteConfig({
    packageDir: __dirname,
    name: 'candidates',
    title: 'Candidates · NativeGTM',
    port: 3001,
    mode: argv.mode || 'production',
  });
