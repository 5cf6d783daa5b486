// The page's remote name, title and port come from the registry of pages (shared/contract/pages.js).
const { createRemoteConfig } = require('@nativegtm/build/webpack');

/**
 * @param {{ outputPath?: string } | undefined} env webpack's --env: outputPath builds somewhere else than dist/ (a
 *   release, docs/releasing.md)
 * @param {{ mode?: import('@nativegtm/build/webpack').Mode }} argv webpack's command line (--mode)
 */
module.exports = (env, argv) =>
  createRemoteConfig({ packageDir: __dirname, mode: argv.mode || 'production', outputPath: env?.outputPath });
