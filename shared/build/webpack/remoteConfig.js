const path = require('node:path');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const { pages } = require('@nativegtm/contract/pages');
const { sharedSingletons } = require('../sharedSingletons');
const { baseConfig } = require('./baseConfig');
const { newBuildId } = require('./buildId');
const { serverRenderConfig } = require('./serverRenderConfig');

/**
 * The remote's container: mf-manifest.json, remoteEntry.js and the exposed page's chunks.
 * @param {{ packageDir: string, name: string, externalRuntime: boolean }} options
 */
function remoteFederation({ packageDir, name, externalRuntime }) {
  return new ModuleFederationPlugin({
    name,
    filename: 'remoteEntry.js',
    exposes: { './Page': './src/Page.tsx' },
    shared: sharedSingletons(packageDir),
    shareStrategy: 'loaded-first',
    dts: false,
    manifest: { fileName: 'mf-manifest.json' },
    experiments: externalRuntime
      ? {
          // The federation runtime comes from the shell (provideExternalRuntime): remoteEntry.js carries only the
          // container and webpack's glue. A remote loads no other remote, so that glue needs no remote loading and
          // no manifest (snapshot) handling either.
          externalRuntime: true,
          optimization: { disableRemote: true, disableSnapshot: true, target: 'web' },
        }
      : undefined,
  });
}

/**
 * @typedef {object} RemoteOptions
 * @property {string} packageDir
 * @property {import('./baseConfig').Mode} [mode]
 * @property {string} [outputPath] instead of the package's dist/ (production builds)
 * @property {string} [name] the remote's name, when the package is not in the registry of pages (a test fixture)
 * @property {string} [title]
 * @property {number} [port]
 * @property {string} [route] the path the page is server-rendered for
 */

/**
 * A page remote: exposes './Page', builds mf-manifest.json + remoteEntry.js at the root of dist/, with
 * publicPath 'auto' so the same dist/ works from any address. Its index.html renders the page alone for its team.
 *
 * Production builds are two compilations into the same dist/: the container, which uses the shell's federation
 * runtime (so visitors download it once), and the standalone page, a plain React app without Module Federation
 * (it has no shell to take the runtime from). The development server keeps one compilation that carries its own
 * runtime, so `npm run dev` serves both the page alone and a remoteEntry.js any host can load.
 * @param {RemoteOptions} options
 * @returns {import('webpack').Configuration | import('webpack').Configuration[]}
 */
function createRemoteConfig({ packageDir, mode = 'production', outputPath, ...overrides }) {
  // A page's name, title and port come from the registry of pages (shared/contract/pages.js) unless a test fixture says.
  const page = pages.find((candidate) => candidate.package === path.basename(packageDir));
  const { name = page?.remote, title = page && `${page.title} · NativeGTM`, port = page?.port, route } = overrides;
  if (!name) throw new Error(`${packageDir} is not in shared/contract/pages.js: add it with \`npm run new-page\`.`);
  const buildId = newBuildId();
  const options = {
    packageDir,
    mode,
    port,
    publicPath: 'auto',
    title,
    template: path.join(__dirname, '../standalone.html'),
    buildId,
  };
  if (mode !== 'production') {
    const config = baseConfig(options);
    config.plugins.push(remoteFederation({ packageDir, name, externalRuntime: false }));
    return config;
  }
  const container = baseConfig(options);
  if (outputPath) container.output.path = outputPath;
  container.name = 'container';
  container.entry = {};
  container.plugins = container.plugins.filter((plugin) => !(plugin instanceof HtmlWebpackPlugin));
  container.plugins.push(remoteFederation({ packageDir, name, externalRuntime: true }));

  const standalone = baseConfig(options);
  standalone.name = 'standalone';
  // After the container, which cleans dist/; this one only adds index.html and the standalone chunks.
  standalone.dependencies = ['container'];
  standalone.output.clean = false;
  standalone.output.uniqueName = `${standalone.output.uniqueName}-standalone`;
  if (outputPath) standalone.output.path = outputPath;

  // The page's HTML for the shell's server, rendered by this build (it reads the container's mf-manifest.json), and
  // the list of the build's files' integrity.
  const ssr = serverRenderConfig({
    packageDir,
    name,
    pageModule: path.join(packageDir, 'src/Page.tsx'),
    buildId,
    mode,
    distDir: container.output.path,
    ...(route ? { route } : {}),
  });
  // After both browser builds: it writes the integrity list of everything they wrote (../ssr.js).
  ssr.dependencies = ['container', 'standalone'];
  return [container, standalone, ssr];
}

module.exports = { createRemoteConfig };
