// Server rendering at build time: a third compilation of a package (target node) that bundles its page with the
// design system and React's server renderer, runs it once the build is written, and writes the page's HTML
// (every variant) and head into dist/ssr/ (see @nativegtm/contract/fragments), and the build's integrity.json. The
// shell's server composes those files into each document; the browser hydrates them with the JavaScript of the same
// build.
const fs = require('node:fs');
const path = require('node:path');
const { rule: pagesLoaderRule } = require('./pagesLoader');
const { CSS_LOADER } = require('./webpack/rules');
const { DefinePlugin } = require('webpack');
const { allVariants, assertValidQuery } = require('@nativegtm/contract/pageVariant');
const {
  FRAGMENT_DIR,
  REMOTE_BASE,
  bodyWrapperStart,
  escapeHtml,
  fragmentPaths,
  headMarker,
} = require('@nativegtm/contract/fragments');
const { fragmentIntegrityListOf, writeIntegrityList } = require('./integrity');

/**
 * Packages from node_modules stay `require`s: the bundle runs once, at build time, beside them.
 * @type {import('webpack').ExternalItemFunctionCallback}
 */
function externalNodeModules({ request }, callback) {
  if (
    request !== undefined &&
    /^[a-z@]/i.test(request) &&
    !request.startsWith('@nativegtm/') &&
    request !== 'nativegtm-ssr-page'
  ) {
    return callback(null, `commonjs ${request}`);
  }
  return callback();
}

/**
 * The part of mf-manifest.json read here.
 * @typedef {{ exposes: { path: string, assets: { css: { sync: string[] } } }[] }} FederationManifest
 */

/**
 * What the server-render bundle exports (@nativegtm/design-system/ssr/server-entry).
 * @typedef {object} PageRenderer
 * @property {{ title: string, description: string, query?: import('@nativegtm/contract/pageVariant').PageQuery }} meta
 *   the page module's meta (the design system's PageMeta)
 * @property {string} buildId the build id the page module was compiled with
 * @property {string} title the document title
 * @property {(options: { name: string, pathname: string, search: string, renderedAt: number }) => string} render
 */

/**
 * The stylesheets the exposed page needs on first paint, from the container build's mf-manifest.json.
 * @param {string} distDir
 * @returns {string[]}
 */
function pageStylesheets(distDir) {
  const manifestFile = path.join(distDir, 'mf-manifest.json');
  if (!fs.existsSync(manifestFile)) return [];
  /** @type {FederationManifest} */
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
  const page = manifest.exposes.find((expose) => expose.path === './Page');
  // Only the page's own styles: the design system's come with the shell, whose copy of it the page runs on.
  return page ? page.assets.css.sync : [];
}

/**
 * @param {Pick<PageRenderer, 'title' | 'meta'>} renderer
 * @param {{ file: string, integrity: string }[]} stylesheets
 * @param {{ name: string, buildId: string }} build
 * @returns {string}
 */
function headHtml({ title: documentTitle, meta }, stylesheets, { name, buildId }) {
  const title = escapeHtml(documentTitle);
  const description = escapeHtml(meta.description);
  return [
    headMarker(name, buildId),
    `<title>${title}</title>`,
    `<meta name="description" content="${description}" />`,
    `<meta property="og:title" content="${title}" />`,
    `<meta property="og:description" content="${description}" />`,
    // With CORS: the remote is another origin, and its file's integrity can only be checked on a CORS response.
    ...stylesheets.map(
      ({ file, integrity }) =>
        `<link rel="stylesheet" href="${REMOTE_BASE}${escapeHtml(file)}" integrity="${integrity}" crossorigin="anonymous" />`,
    ),
  ].join('\n');
}

class WriteFragmentsPlugin {
  /** @param {{ name: string, route: string, distDir: string, buildId: string }} options */
  constructor({ name, route, distDir, buildId }) {
    this.name = name;
    this.route = route;
    this.distDir = distDir;
    this.buildId = buildId;
  }

  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    compiler.hooks.afterEmit.tapPromise('WriteFragmentsPlugin', async (compilation) => {
      if (compilation.errors.length > 0) return;
      // Always set: createSsrConfig gives the bundle its own folder.
      const bundle = path.join(/** @type {string} */ (compilation.outputOptions.path), 'render.js');
      delete require.cache[require.resolve(bundle)];
      /** @type {PageRenderer} */
      const renderer = require(bundle);
      const { meta } = renderer;
      assertValidQuery(meta.query);
      if (renderer.buildId !== this.buildId)
        throw new Error(`${this.name}: the page module does not export this build's id`);

      // The last compilation of a package's build, after its browser builds: the list of the integrity of every file
      // they wrote (@nativegtm/contract/integrity), which the page's head links its stylesheets with.
      const integrity = writeIntegrityList(this.distDir);
      const renderedAt = Date.now();
      const out = path.join(this.distDir, FRAGMENT_DIR);
      fs.rmSync(out, { recursive: true, force: true });
      fs.mkdirSync(path.join(out, 'body'), { recursive: true });
      for (const { key, search } of allVariants(meta.query)) {
        const html = renderer.render({ name: this.name, pathname: this.route, search, renderedAt });
        // The wrapper tells the browser which remote, build and variant this HTML is (shell/src/screens/PageSlot.tsx).
        const wrapped =
          bodyWrapperStart(this.name, this.buildId) +
          `data-variant="${escapeHtml(key)}" data-rendered-at="${renderedAt}">${html}</div>`;
        fs.writeFileSync(path.join(this.distDir, fragmentPaths.body(key)), wrapped);
      }
      fs.writeFileSync(
        path.join(this.distDir, fragmentPaths.head),
        headHtml(
          renderer,
          pageStylesheets(this.distDir).map((file) => {
            const value = integrity[file];
            if (!value) throw new Error(`${this.name}: ${file} is not in its build's integrity list`);
            return { file, integrity: value };
          }),
          this,
        ),
      );
      // Last: its presence says the set is complete. It names each file's integrity, and the build's list names its
      // own: the document server pastes a release's HTML only with the bytes the store recorded through both.
      fs.writeFileSync(
        path.join(this.distDir, fragmentPaths.manifest),
        JSON.stringify({
          name: this.name,
          buildId: this.buildId,
          renderedAt,
          route: this.route,
          query: meta.query ?? {},
          integrity: fragmentIntegrityListOf(this.distDir),
        }),
      );
      writeIntegrityList(this.distDir);
    });
  }
}

/**
 * @param {{ packageDir: string, distDir?: string, name: string, route: string, pageModule: string, buildId: string,
 *   mode: import('webpack').Configuration['mode'], cssModules: import('./webpack/rules').CssModulesOptions, tsRule: import('webpack').RuleSetRule }} options
 * @returns {import('webpack').Configuration}
 */
function createSsrConfig({
  packageDir,
  distDir = path.join(packageDir, 'dist'),
  name,
  route,
  pageModule,
  buildId,
  mode,
  cssModules,
  tsRule,
}) {
  // Never deployed: the bundle only runs here, once, to write the HTML into distDir.
  const buildDir = path.join(packageDir, 'node_modules', '.cache', 'nativegtm-ssr', path.basename(distDir));
  return {
    name: 'ssr',
    mode,
    target: 'node20',
    context: packageDir,
    devtool: false,
    entry: { render: require.resolve('@nativegtm/design-system/ssr/server-entry') },
    output: { path: buildDir, filename: '[name].js', library: { type: 'commonjs2' }, clean: true },
    resolve: { extensions: ['.tsx', '.ts', '.js'], alias: { 'nativegtm-ssr-page': pageModule } },
    externals: [externalNodeModules],
    module: {
      rules: [
        tsRule,
        // The registry of pages as the browser bundles see it (pagesLoader.js), so the render is of the same code.
        pagesLoaderRule,
        {
          test: /\.css$/,
          // The same class names as the browser build (same hashing), without the CSS: the browser gets that as files.
          use: [{ loader: CSS_LOADER, options: { modules: { ...cssModules, exportOnlyLocals: true } } }],
        },
        { test: /\.(svg|png|woff2)$/, type: 'asset/resource', generator: { emit: false } },
      ],
    },
    optimization: { minimize: false },
    plugins: [
      new DefinePlugin({ __NATIVEGTM_BUILD_ID__: JSON.stringify(buildId) }),
      new WriteFragmentsPlugin({ name, route, distDir, buildId }),
    ],
    performance: { hints: false },
    stats: 'errors-warnings',
  };
}

module.exports = { createSsrConfig };
