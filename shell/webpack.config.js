const { createShellConfig } = require('@nativegtm/build/webpack');

module.exports = (env, argv) =>
  createShellConfig({
    packageDir: __dirname,
    port: 3000,
    mode: argv.mode || 'production',
  });
