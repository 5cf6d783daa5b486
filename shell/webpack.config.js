const { createShellConfig } = require('@nativegtm/shared/build/webpack.js');

module.exports = (env, argv) =>
  createShellConfig({
    packageDir: __dirname,
    port: 3000,
    mode: argv.mode || 'production',
  });
