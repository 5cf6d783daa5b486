// The page's remote name, title and port come from the registry of pages (shared/contract/pages.js).
const { createRemoteConfig } = require('@nativegtm/build/webpack');

/**
 * @param {unknown} _env
 * @param {{ mode?: import('webpack').Configuration['mode'] }} argv webpack's command line (--mode)
 */
module.exports = (_env, argv) => createRemoteConfig({ packageDir: __dirname, mode: argv.mode || 'production' });
