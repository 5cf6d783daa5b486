const { createRemoteConfig } = require('@nativegtm/shared/build/webpack.js');

module.exports = (_env, argv) =>
  createRemoteConfig({
    packageDir: __dirname,
    name: 'comingSoon',
    title: 'Coming Soon · NativeGTM',
    port: 3004,
    mode: argv.mode || 'production',
  });
