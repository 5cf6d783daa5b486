// One webpack configuration for every deployable, so the shell and the four remotes cannot drift apart in
// loaders, hashing or sharing rules. Each package's webpack.config.js only says what is specific to it.
const path = require('node:path');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const MiniCssExtractPlugin = require('mini-css-extract-plugin');
const CompressionPlugin = require('compression-webpack-plugin');
const CopyPlugin = require('copy-webpack-plugin');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const { sharedSingletons } = require('./shared-singletons');

const repoRoot = path.resolve(__dirname, '../..');

// Files that must always be revalidated are not precompressed when an operator may edit them in place
// (remotes.json): a stale .gz beside an edited file would be served instead of the edit.
const NEVER_PRECOMPRESS = /remotes\.json$/;

function baseConfig({ packageDir, mode, publicPath, title, port, template, html = {} }) {
  const production = mode === 'production';
  return {
    mode,
    context: packageDir,
    entry: { main: './src/index.ts' },
    devtool: production ? 'source-map' : 'eval-cheap-module-source-map',
    output: {
      path: path.join(packageDir, 'dist'),
      publicPath,
      filename: production ? '[name].[contenthash:10].js' : '[name].js',
      chunkFilename: production ? '[name].[contenthash:10].js' : '[name].js',
      assetModuleFilename: '[name].[contenthash:10][ext]',
      clean: true,
      uniqueName: path.basename(packageDir),
    },
    resolve: {
      extensions: ['.tsx', '.ts', '.js'],
    },
    module: {
      rules: [
        {
          test: /\.tsx?$/,
          exclude: /node_modules/,
          use: {
            loader: 'ts-loader',
            // Type errors are caught by `npm run typecheck` (tsc -b over the whole repo); the bundler only strips types.
            options: {
              transpileOnly: true,
              configFile: path.join(repoRoot, 'tsconfig.base.json'),
              compilerOptions: { rootDir: repoRoot, sourceMap: production },
            },
          },
        },
        {
          test: /\.css$/,
          use: [
            MiniCssExtractPlugin.loader,
            {
              loader: 'css-loader',
              options: {
                modules: {
                  auto: /\.module\.css$/,
                  // Hashing against the repository root makes class names unique per package and file, so two remotes
                  // with the same file layout can never produce the same class and leak styles into each other.
                  localIdentContext: repoRoot,
                  localIdentName: production ? '[hash:base64:7]' : '[path][name]__[local]',
                  namedExport: false,
                  exportLocalsConvention: 'as-is',
                },
              },
            },
          ],
        },
        {
          test: /\.(svg|png|woff2)$/,
          type: 'asset/resource',
        },
      ],
    },
    plugins: [
      new MiniCssExtractPlugin({
        filename: production ? '[name].[contenthash:10].css' : '[name].css',
        chunkFilename: production ? '[name].[contenthash:10].css' : '[name].css',
      }),
      new HtmlWebpackPlugin({
        template,
        title,
        scriptLoading: 'defer',
        // Only the app entry: a remote's container (remoteEntry.js) is for hosts, its own page never needs it.
        chunks: ['main'],
        ...html,
      }),
      production &&
        new CompressionPlugin({
          test: /\.(js|css|html|json|svg)$/,
          exclude: NEVER_PRECOMPRESS,
          algorithm: 'gzip',
          filename: '[path][base].gz',
          threshold: 0,
        }),
      production &&
        new CompressionPlugin({
          test: /\.(js|css|html|json|svg)$/,
          exclude: NEVER_PRECOMPRESS,
          algorithm: 'brotliCompress',
          filename: '[path][base].br',
          threshold: 0,
        }),
    ].filter(Boolean),
    devServer: {
      port,
      historyApiFallback: true,
      hot: false,
      liveReload: true,
      headers: { 'Access-Control-Allow-Origin': '*' },
      client: { overlay: { warnings: false, errors: true } },
    },
    performance: { hints: false },
    stats: 'errors-warnings',
  };
}

/** The host: routes, 404, error screen; learns where remotes live at run time from /remotes.json. */
function createShellConfig({ packageDir, port, mode = 'production' }) {
  const config = baseConfig({
    packageDir,
    mode,
    port,
    publicPath: '/',
    title: 'NativeGTM',
    template: path.join(packageDir, 'src/index.html'),
    html: { preloadRemotesConfig: true },
  });
  config.plugins.push(
    // remotes.json is deployment configuration, not code: copied as is so operators can edit it in dist/.
    new CopyPlugin({ patterns: [{ from: 'public', to: '.' }] }),
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
      runtimePlugins: [path.join(packageDir, 'src/remotes/provideFederationRuntime.ts')],
      // Browser-only: drops the runtime's Node.js script loading.
      experiments: { optimization: { target: 'web' } },
    }),
  );
  return config;
}

/** The remote's container: mf-manifest.json, remoteEntry.js and the exposed page's chunks. */
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
 * A page remote: exposes './Page', builds mf-manifest.json + remoteEntry.js at the root of dist/, with
 * publicPath 'auto' so the same dist/ works from any address. Its index.html renders the page alone for its team.
 *
 * Production builds are two compilations into the same dist/: the container, which uses the shell's federation
 * runtime (so visitors download it once), and the standalone page, a plain React app without Module Federation
 * (it has no shell to take the runtime from). The development server keeps one compilation that carries its own
 * runtime, so `npm run dev` serves both the page alone and a remoteEntry.js any host can load.
 */
function createRemoteConfig({ packageDir, name, title, port, mode = 'production' }) {
  const options = {
    packageDir,
    mode,
    port,
    publicPath: 'auto',
    title,
    template: path.join(__dirname, 'standalone.html'),
  };
  if (mode !== 'production') {
    const config = baseConfig(options);
    config.plugins.push(remoteFederation({ packageDir, name, externalRuntime: false }));
    return config;
  }
  const container = baseConfig(options);
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
  return [container, standalone];
}

/**
 * The monolith: the shell with the four pages imported statically (shell/src/monolith/), same loaders, minifier and
 * hashing, no Module Federation. Never deployed: `npm run bench` measures the composed site against it.
 */
function createMonolithConfig({ packageDir, port, mode = 'production' }) {
  const config = baseConfig({
    packageDir,
    mode,
    port,
    publicPath: '/',
    title: 'NativeGTM',
    template: path.join(packageDir, 'src/index.html'),
  });
  config.entry = { main: './src/monolith/index.tsx' };
  config.output.path = path.join(packageDir, 'dist-monolith');
  config.output.uniqueName = 'shell-monolith';
  config.plugins.push(
    new CopyPlugin({ patterns: [{ from: 'public', to: '.', globOptions: { ignore: ['**/remotes.json'] } }] }),
  );
  return config;
}

module.exports = { createShellConfig, createRemoteConfig, createMonolithConfig, repoRoot };
