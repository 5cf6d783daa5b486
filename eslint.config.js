// The lint rules live with the build (@nativegtm/build/eslint): one configuration for every package.
module.exports = require('@nativegtm/build/eslint');
