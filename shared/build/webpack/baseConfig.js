// What every browser build has in common, the shell's and the remotes' alike, so they cannot drift apart in loaders,
// hashing or file names.
const path = require('node:path');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const MiniCssExtractPlugin = require('mini-css-extract-plugin');
const CompressionPlugin = require('compression-webpack-plugin');
const { DefinePlugin } = require('webpack');
const { CONTENT_HASH_LENGTH } = require('@nativegtm/contract/assetNames');
const { composeParts, composePath } = require('@nativegtm/contract/composePaths');
const { devServerPolicies, trustedTypesPolicies } = require('@nativegtm/contract/trustedTypes');
const { rule: pagesLoaderRule } = require('../pagesLoader');
const { SubresourceIntegrityPlugin } = require('../plugins/subresourceIntegrity');
const { tsRule, cssModules, CSS_LOADER } = require('./rules');
const { newBuildId } = require('./buildId');

/** @typedef {import('webpack').Configuration} Configuration */
/** @typedef {NonNullable<Configuration['mode']>} Mode */

/**
 * A configuration its callers adjust before handing it to webpack: its output and plugins are always there.
 * @typedef {Omit<Configuration, 'output' | 'plugins'> & {
 *   output: NonNullable<Configuration['output']> & { path: string, uniqueName: string },
 *   plugins: import('webpack').WebpackPluginInstance[],
 *   devServer: import('webpack-dev-server').Configuration,
 * }} BaseConfiguration
 */

/**
 * @typedef {object} BaseOptions
 * @property {string} packageDir the package's folder: the build's context, dist/ inside it
 * @property {Mode} mode
 * @property {string} publicPath
 * @property {string | undefined} title the document's title
 * @property {number | undefined} port the development server's
 * @property {string} template the document's HTML template
 * @property {import('html-webpack-plugin').Options} [html] more html-webpack-plugin options
 * @property {string} [buildId]
 */

/** `[contenthash:10]`: the servers recognise hashed files by this length (@nativegtm/contract/assetNames). */
const CONTENT_HASH = `[contenthash:${CONTENT_HASH_LENGTH}]`;

/**
 * The shell's index.html is an SSI template: its includes ask for the compose paths of the screen in `$page`
 * (@nativegtm/contract/composePaths), which both servers answer.
 */
const templateCompose = {
  pageHead: composePath(composeParts.pageHead, '$page'),
  siteHead: composePath(composeParts.siteHead, '$page'),
  pageBody: composePath(composeParts.pageBody, '$page'),
};

// Files that must always be revalidated are not precompressed when an operator may edit them in place
// (remotes.json): a stale .gz beside an edited file would be served instead of the edit.
const NEVER_PRECOMPRESS = /remotes\.json$/;

/**
 * @param {BaseOptions} options
 * @returns {BaseConfiguration}
 */
function baseConfig({ packageDir, mode, publicPath, title, port, template, html = {}, buildId = newBuildId() }) {
  const production = mode === 'production';
  return {
    mode,
    context: packageDir,
    entry: { main: './src/index.ts' },
    devtool: production ? 'source-map' : 'cheap-module-source-map',
    output: {
      path: path.join(packageDir, 'dist'),
      publicPath,
      filename: production ? `[name].${CONTENT_HASH}.js` : '[name].js',
      chunkFilename: production ? `[name].${CONTENT_HASH}.js` : '[name].js',
      assetModuleFilename: `[name].${CONTENT_HASH}[ext]`,
      clean: true,
      uniqueName: path.basename(packageDir),
      // The chunks of another origin (a remote's, from the shell's page) are requested with CORS: every remote answers
      // `Access-Control-Allow-Origin: *`. Without it a browser checks no integrity on them (the response is opaque),
      // and hides their errors: "Script error.", no file, no stack, which the shell's field data could not place.
      // Webpack marks only other origins' scripts, and mini-css-extract only their stylesheets, as the shell's
      // federation runtime does for what it adds (shell/src/remotes/trustedScriptUrls.ts): preloads then match.
      crossOriginLoading: 'anonymous',
      // The chunk loader sets script.src through this policy: the documents enforce Trusted Types. 'stop': a policy
      // the CSP refuses fails the load where it happens, rather than handing a plain string to the sink.
      trustedTypes: { policyName: trustedTypesPolicies.webpack, onPolicyCreationFailure: 'stop' },
    },
    resolve: {
      extensions: ['.tsx', '.ts', '.js'],
    },
    module: {
      rules: [
        tsRule(production),
        pagesLoaderRule,
        {
          test: /\.css$/,
          use: [MiniCssExtractPlugin.loader, { loader: CSS_LOADER, options: { modules: cssModules(production) } }],
        },
        {
          test: /\.(svg|png|woff2)$/,
          type: 'asset/resource',
        },
      ],
    },
    plugins: [
      new DefinePlugin({ __NATIVEGTM_BUILD_ID__: JSON.stringify(buildId) }),
      new MiniCssExtractPlugin({
        filename: production ? `[name].${CONTENT_HASH}.css` : '[name].css',
        chunkFilename: production ? `[name].${CONTENT_HASH}.css` : '[name].css',
      }),
      new HtmlWebpackPlugin({
        template,
        title,
        scriptLoading: 'defer',
        // Only the app entry: a remote's container (remoteEntry.js) is for hosts, its own page never needs it.
        chunks: ['main'],
        templateParameters: { compose: templateCompose },
        ...html,
      }),
      ...(production
        ? [
            // Not in development: files change on every save there, and a dev server is trusted as it is.
            new SubresourceIntegrityPlugin(),
            new CompressionPlugin({
              test: /\.(js|css|html|json|svg)$/,
              exclude: NEVER_PRECOMPRESS,
              algorithm: 'gzip',
              filename: '[path][base].gz',
              threshold: 0,
            }),
            new CompressionPlugin({
              test: /\.(js|css|html|json|svg)$/,
              exclude: NEVER_PRECOMPRESS,
              algorithm: 'brotliCompress',
              filename: '[path][base].br',
              threshold: 0,
            }),
          ]
        : []),
    ],
    devServer: {
      port,
      historyApiFallback: true,
      hot: false,
      liveReload: true,
      headers: { 'Access-Control-Allow-Origin': '*' },
      // The overlay writes its HTML through this Trusted Types policy: inside the site (an override), the documents
      // enforce Trusted Types and allow it for that browser only.
      // (webpack-dev-server's schema has the option; its type declarations do not yet.)
      client: {
        overlay: /** @type {{ warnings: boolean, errors: boolean }} */ ({
          warnings: false,
          errors: true,
          trustedTypesPolicyName: devServerPolicies.overlay,
        }),
      },
    },
    performance: { hints: false },
    stats: 'errors-warnings',
  };
}

module.exports = { baseConfig };
