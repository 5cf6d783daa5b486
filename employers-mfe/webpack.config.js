// The page's remote name, title and port come from the registry of pages (shared/pages.js).
const { createRemoteConfig } = require('@nativegtm/shared/build/webpack.js');

module.exports = (_env, argv) => createRemoteConfig({ packageDir: __dirname, mode: argv.mode || 'production' });
