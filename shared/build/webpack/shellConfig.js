const path = require('node:path');
const { FIELD_DATA_PATH } = require('@nativegtm/contract/fieldData');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const { sharedSingletons } = require('../sharedSingletons');
const { PaintFirstPlugin } = require('../paintFirst/plugin');
const { LinkAllStylesheetsPlugin } = require('../plugins/linkAllStylesheets');
const { ShippedRemotesPlugin } = require('../plugins/shippedRemotes');
const { copyPublicFiles } = require('../plugins/copyPublicFiles');
const { baseConfig } = require('./baseConfig');
const { newBuildId } = require('./buildId');
const { serverRenderConfig } = require('./serverRenderConfig');

/**
 * The host: routes, 404, error screen; learns where remotes live at run time from /remotes.json.
 *
 * Production builds are two compilations: the shell, and the server render of its 404 screen.
 * @param {{ packageDir: string, port: number, mode?: import('./baseConfig').Mode }} options
 * @returns {import('webpack').Configuration | import('webpack').Configuration[]}
 */
function createShellConfig({ packageDir, port, mode = 'production' }) {
  const buildId = newBuildId();
  const config = baseConfig({
    buildId,
    packageDir,
    mode,
    port,
    publicPath: '/',
    title: 'NativeGTM',
    template: path.join(packageDir, 'src/index.html'),
  });
  config.plugins.push(
    copyPublicFiles(),
    // remotes.json is deployment configuration, not code: written from the registry of pages (every remote at its
    // `npm start` address), never minified or precompressed, so operators can edit it in dist/.
    new ShippedRemotesPlugin(),
    new ModuleFederationPlugin({
      name: 'shell',
      remotes: {},
      shared: sharedSingletons(packageDir),
      // The default 'version-first' strategy fetches every remote's entry before anything renders, so one remote that
      // is down blanks the whole site. 'loaded-first' only touches a remote when its route is opened.
      shareStrategy: 'loaded-first',
      dts: false,
      manifest: false,
      // The shell is the one container that carries the federation runtime: this plugin publishes it on a global
      // (_FEDERATION_RUNTIME_CORE) for the remotes, which are built with externalRuntime. (It replaces
      // experiments.provideExternalRuntime, which bundles a second, CommonJS copy of the runtime: see the file.)
      // trustedScriptUrls: the scripts this runtime adds (remote entries, preloaded chunks) get their src through
      // the shell's Trusted Types policy, which the documents enforce.
      runtimePlugins: [
        path.join(packageDir, 'src/remotes/provideFederationRuntime.ts'),
        path.join(packageDir, 'src/remotes/trustedScriptUrls.ts'),
      ],
      // Browser-only: drops the runtime's Node.js script loading.
      experiments: { optimization: { target: 'web' } },
    }),
    new LinkAllStylesheetsPlugin(),
    // remotes.json says where the page's remote lives: fetched as soon as the scripts start, in parallel with them.
    new PaintFirstPlugin({ fetches: ['/remotes.json'] }),
  );
  // One stylesheet for the shell's build (the design system's and the shell's screens'), not one per chunk: every
  // render-blocking file is one more request before the first paint.
  config.optimization = {
    ...config.optimization,
    splitChunks: {
      cacheGroups: { styles: { name: 'styles', type: 'css/mini-extract', chunks: 'all', enforce: true } },
    },
  };
  // `npm run dev`: the shell's field-data collector posts its beacons to this server, which takes them and keeps
  // nothing (npm start's server keeps field data), so a page left in development logs no failed request.
  config.devServer.setupMiddlewares = (middlewares) => [
    {
      name: 'field-data',
      path: FIELD_DATA_PATH,
      middleware: (
        /** @type {import('node:http').IncomingMessage} */ req,
        /** @type {import('node:http').ServerResponse} */ res,
        /** @type {() => void} */ next,
      ) => {
        if (req.method !== 'POST') return next();
        req.resume();
        res.statusCode = 204;
        return res.end();
      },
    },
    ...middlewares,
  ];
  if (mode !== 'production') return config;
  config.name = 'shell';
  // The shell's own 404 screen, rendered to HTML like a page, so an unknown path answers 404 with content.
  const notFound = serverRenderConfig({
    packageDir,
    name: 'shell',
    pageModule: path.join(packageDir, 'src/screens/notFoundPage.ts'),
    buildId,
    mode,
    route: '/404',
  });
  notFound.dependencies = ['shell'];
  return [config, notFound];
}

module.exports = { createShellConfig };
