const { createRemoteConfig } = require('@nativegtm/shared/build/webpack.js');

module.exports = (_env, argv) =>
  createRemoteConfig({
    packageDir: __dirname,
    name: 'employers',
    title: 'Employers · NativeGTM',
    port: 3002,
    mode: argv.mode || 'production',
  });
