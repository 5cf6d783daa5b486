// One webpack configuration for every deployable, so the shell and the four remotes cannot drift apart in
// loaders, hashing or sharing rules. Each package's webpack.config.js only says what is specific to it; the
// benchmark's monolith (tests/bench/monolith) assembles its own from the same pieces.
const { createShellConfig } = require('./shellConfig');
const { createRemoteConfig } = require('./remoteConfig');
const { baseConfig } = require('./baseConfig');
const { repoRoot } = require('./rules');
const { copyPublicFiles } = require('../plugins/copyPublicFiles');
const { LinkAllStylesheetsPlugin } = require('../plugins/linkAllStylesheets');
const { PaintFirstPlugin } = require('../paintFirst/plugin');

// The compiler itself, for code that runs a build from Node (the tests' buildRemote): the one webpack this package
// declares and configures, rather than a copy the caller would have to declare and keep at the same version.
const webpack = require('webpack');

/** @typedef {import('webpack').Configuration} Configuration */
/** @typedef {import('./baseConfig').Mode} Mode */

module.exports = {
  createShellConfig,
  createRemoteConfig,
  baseConfig,
  copyPublicFiles,
  LinkAllStylesheetsPlugin,
  PaintFirstPlugin,
  repoRoot,
  webpack,
};
