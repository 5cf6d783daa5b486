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

module.exports = {
  createShellConfig,
  createRemoteConfig,
  baseConfig,
  copyPublicFiles,
  LinkAllStylesheetsPlugin,
  PaintFirstPlugin,
  repoRoot,
};
