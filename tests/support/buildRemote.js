// Builds a remote with the same configuration as the real ones (production mode), from any package folder, into
// `outputPath`. Used to deploy test doubles (a broken remote, a changed build of a real one) and by the soak.
const { createRemoteConfig, webpack } = require('@nativegtm/build/webpack');
const { deployables } = require('@nativegtm/server/deployables');

/**
 * @param {{ packageDir: string, name: string, outputPath: string }} options
 * @returns {Promise<void>}
 */
function buildRemote(options) {
  // The remote's page route, so its server-rendered HTML is rendered for the URL it will be shown at.
  const route = deployables.find((d) => d.remote === options.name)?.route;
  // Production builds are three compilations: the container and the page alone into outputPath, and the server
  // render, which writes the page's HTML into outputPath/ssr. (A list either way, for webpack's typed overloads.)
  const configs = [
    createRemoteConfig({
      packageDir: options.packageDir,
      name: options.name,
      title: options.name,
      port: 0,
      outputPath: options.outputPath,
      route,
    }),
  ].flat();
  return new Promise((resolve, reject) => {
    webpack(configs, (error, stats) => {
      if (error) return reject(error);
      if (stats?.hasErrors()) return reject(new Error(stats.toString({ all: false, errors: true })));
      return resolve();
    });
  });
}

module.exports = { buildRemote };
