const { createRemoteConfig } = require('@nativegtm/shared/build/webpack.js');

module.exports = (_env, argv) =>
  createRemoteConfig({
    packageDir: __dirname,
    name: 'jobs',
    title: 'Featured Jobs · NativeGTM',
    port: 3003,
    mode: argv.mode || 'production',
  });
