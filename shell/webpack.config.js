const { createShellConfig } = require('@nativegtm/build/webpack');

/**
 * @param {unknown} _env
 * @param {{ mode?: import('@nativegtm/build/webpack').Mode }} argv webpack's command line (--mode)
 */
module.exports = (_env, argv) =>
  createShellConfig({
    packageDir: __dirname,
    port: 3000,
    mode: argv.mode || 'production',
  });
