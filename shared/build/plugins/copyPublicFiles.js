const CopyPlugin = require('copy-webpack-plugin');

/** The package's public/ folder, copied as it is to the root of dist/. */
function copyPublicFiles() {
  return new CopyPlugin({ patterns: [{ from: 'public', to: '.' }] });
}

module.exports = { copyPublicFiles };
