// One webpack configuration for every deployable, so the shell and the four remotes cannot drift apart in
// loaders, hashing or sharing rules. Each package's webpack.config.js only says what is specific to it.
const path = require('node:path');
const { rule: pagesLoaderRule } = require('./pagesLoader');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const MiniCssExtractPlugin = require('mini-css-extract-plugin');
const CompressionPlugin = require('compression-webpack-plugin');
const CopyPlugin = require('copy-webpack-plugin');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const { randomBytes } = require('node:crypto');
const { DefinePlugin } = require('webpack');
const { sharedSingletons } = require('./sharedSingletons');
const { createSsrConfig } = require('./ssr');
const { PaintFirstPlugin } = require('./paint-first/plugin');
const { pages } = require('@nativegtm/contract/pages');
const { shippedRemotes } = require('@nativegtm/contract/remotesConfig');
const { CONTENT_HASH_LENGTH } = require('@nativegtm/contract/assetNames');
const { composeParts, composePath } = require('@nativegtm/contract/composePaths');

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

const repoRoot = path.resolve(__dirname, '../..');

// Files that must always be revalidated are not precompressed when an operator may edit them in place
// (remotes.json): a stale .gz beside an edited file would be served instead of the edit.
const NEVER_PRECOMPRESS = /remotes\.json$/;

/** New for every build: server-rendered HTML is only hydrated by JavaScript with the same id (shared/design-system/src/buildId.ts). */
function newBuildId() {
  return `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

function tsRule(production) {
  return {
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
  };
}

function cssModules(production) {
  return {
    auto: /\.module\.css$/,
    // Hashing against the repository root makes class names unique per package and file, so two remotes
    // with the same file layout can never produce the same class and leak styles into each other.
    localIdentContext: repoRoot,
    localIdentName: production ? '[hash:base64:7]' : '[path][name]__[local]',
    namedExport: false,
    exportLocalsConvention: 'as-is',
  };
}

function baseConfig({ packageDir, mode, publicPath, title, port, template, html = {}, buildId = newBuildId() }) {
  const production = mode === 'production';
  return {
    mode,
    context: packageDir,
    entry: { main: './src/index.ts' },
    devtool: production ? 'source-map' : 'eval-cheap-module-source-map',
    output: {
      path: path.join(packageDir, 'dist'),
      publicPath,
      filename: production ? `[name].${CONTENT_HASH}.js` : '[name].js',
      chunkFilename: production ? `[name].${CONTENT_HASH}.js` : '[name].js',
      assetModuleFilename: `[name].${CONTENT_HASH}[ext]`,
      clean: true,
      uniqueName: path.basename(packageDir),
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
          use: [MiniCssExtractPlugin.loader, { loader: 'css-loader', options: { modules: cssModules(production) } }],
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
    new CopyPlugin({ patterns: [{ from: 'public', to: '.' }] }),
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
      runtimePlugins: [path.join(packageDir, 'src/remotes/provideFederationRuntime.ts')],
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

/**
 * Links every stylesheet of the shell's build (the design system's and the shell's screens') from index.html: a
 * document that arrives with a page's HTML must paint it styled before any script runs. The chunks' loaders find
 * these links and do not load the files again.
 */
class LinkAllStylesheetsPlugin {
  apply(compiler) {
    compiler.hooks.compilation.tap('LinkAllStylesheetsPlugin', (compilation) => {
      HtmlWebpackPlugin.getHooks(compilation).alterAssetTagGroups.tap('LinkAllStylesheetsPlugin', (data) => {
        const publicPath = compilation.outputOptions.publicPath;
        const linked = new Set(data.headTags.map((tag) => tag.attributes?.href));
        const stylesheets = Object.keys(compilation.assets)
          .filter((file) => file.endsWith('.css'))
          .sort()
          .map((file) => `${publicPath}${file}`)
          .filter((href) => !linked.has(href));
        for (const href of stylesheets) {
          data.headTags.push({
            tagName: 'link',
            voidTag: true,
            attributes: { rel: 'stylesheet', href },
            meta: { plugin: 'LinkAllStylesheetsPlugin' },
          });
        }
        return data;
      });
    });
  }
}

/** Writes the shell's remotes.json from the registry of pages (shared/contract/pages.js). */
class ShippedRemotesPlugin {
  apply(compiler) {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('ShippedRemotesPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'ShippedRemotesPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () =>
          compilation.emitAsset(
            'remotes.json',
            new sources.RawSource(`${JSON.stringify(shippedRemotes(), null, 2)}\n`),
          ),
      );
    });
  }
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
    template: path.join(__dirname, 'standalone.html'),
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

  // The page's HTML for the shell's server, rendered by this build (it reads the container's mf-manifest.json).
  const ssr = serverRenderConfig({
    packageDir,
    name,
    pageModule: path.join(packageDir, 'src/Page.tsx'),
    buildId,
    mode,
    distDir: container.output.path,
    ...(route ? { route } : {}),
  });
  ssr.dependencies = ['container'];
  return [container, standalone, ssr];
}

/** The package's route, from the registry of pages. */
function routeOf(packageDir) {
  const page = pages.find((candidate) => candidate.package === path.basename(packageDir));
  if (!page) throw new Error(`${packageDir} has no route in the registry of pages (@nativegtm/contract/pages)`);
  return page.route;
}

function serverRenderConfig({ packageDir, name, pageModule, buildId, mode, distDir, route = routeOf(packageDir) }) {
  const production = mode === 'production';
  return createSsrConfig({
    packageDir,
    distDir,
    name,
    route,
    pageModule,
    buildId,
    mode,
    cssModules: cssModules(production),
    tsRule: tsRule(false),
  });
}

/**
 * The monolith: the shell with the four pages imported statically (tests/bench/monolith/), same loaders, minifier and
 * hashing, no Module Federation. Never deployed: `npm run bench` measures the composed site against it. It uses the
 * shell's document template and public files, so both start from the same document.
 */
function createMonolithConfig({ shellDir, entry, outputPath, port = 3000, mode = 'production' }) {
  const config = baseConfig({
    packageDir: shellDir,
    mode,
    port,
    publicPath: '/',
    title: 'NativeGTM',
    template: path.join(shellDir, 'src/index.html'),
    // A fixed id: the benchmark's pre-rendered monolith marks the pages' server HTML with it, so this bundle hydrates it.
    buildId: 'monolith',
  });
  config.entry = { main: entry };
  config.output.path = outputPath;
  config.output.uniqueName = 'shell-monolith';
  config.plugins.push(
    new CopyPlugin({ patterns: [{ from: 'public', to: '.' }] }),
    new LinkAllStylesheetsPlugin(),
    // The same start-up as the shell's, so the pre-rendered monolith remains a like-for-like reference.
    new PaintFirstPlugin(),
  );
  return config;
}

module.exports = { createShellConfig, createRemoteConfig, createMonolithConfig, repoRoot };
