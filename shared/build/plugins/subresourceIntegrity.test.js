// A real production build (minified, real content hashes, precompressed) of an entry that loads a chunk with a
// stylesheet, from a document: every file the browser loads carries the integrity of the bytes written.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const vm = require('node:vm');
const zlib = require('node:zlib');
const webpack = require('webpack');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const MiniCssExtractPlugin = require('mini-css-extract-plugin');
const CompressionPlugin = require('compression-webpack-plugin');
const { REFUSED_INTEGRITY } = require('@nativegtm/contract/integrity');
const { integrityOf } = require('../integrity');
const { CSS_LOADER } = require('../webpack/rules');
const { SubresourceIntegrityPlugin } = require('./subresourceIntegrity');
const { PaintFirstPlugin } = require('../paintFirst/plugin');

/**
 * @returns {Promise<{ files: Record<string, Buffer>, text: (name: RegExp) => [string, string] }>}
 */
async function build() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'integrity-'));
  try {
    fs.writeFileSync(
      path.join(dir, 'entry.js'),
      "import './site.css';\nimport('./page.js').then((page) => page.default);\n",
    );
    fs.writeFileSync(path.join(dir, 'site.css'), 'body { margin: 0; }\n');
    fs.writeFileSync(path.join(dir, 'page.js'), "import './page.css';\nexport default 'page';\n");
    fs.writeFileSync(path.join(dir, 'page.css'), 'p { color: red; }\n');
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html><head></head><body></body></html>\n');
    /** @type {import('webpack').Configuration} */
    const config = {
      mode: 'production',
      context: dir,
      devtool: 'source-map',
      entry: { main: './entry.js' },
      output: {
        path: path.join(dir, 'dist'),
        publicPath: '/',
        filename: '[name].[contenthash:10].js',
        chunkFilename: '[name].[contenthash:10].js',
      },
      module: { rules: [{ test: /\.css$/, use: [MiniCssExtractPlugin.loader, CSS_LOADER] }] },
      plugins: [
        new MiniCssExtractPlugin({ filename: '[name].[contenthash:10].css' }),
        new HtmlWebpackPlugin({ template: path.join(dir, 'index.html') }),
        new SubresourceIntegrityPlugin(),
        new PaintFirstPlugin(),
        new CompressionPlugin({ test: /\.(js|css|html)$/, algorithm: 'gzip', filename: '[path][base].gz' }),
      ],
    };
    await new Promise((resolve, reject) =>
      webpack(config, (error, stats) => {
        if (error || stats?.hasErrors()) reject(error ?? new Error(stats?.toString('errors-only')));
        else resolve(stats);
      }),
    );
    const out = path.join(dir, 'dist');
    const files = Object.fromEntries(fs.readdirSync(out).map((name) => [name, fs.readFileSync(path.join(out, name))]));
    return {
      files,
      text(name) {
        const found = Object.keys(files).find((file) => name.test(file));
        if (!found) throw new Error(`no file matches ${name}`);
        return [found, /** @type {Buffer} */ (files[found]).toString('utf8')];
      },
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** @type {Awaited<ReturnType<typeof build>>} */
let built;
// A real webpack compilation: a few seconds alone, well past jest's 5 s on a machine busy building beside it.
jest.setTimeout(60_000);
beforeAll(async () => {
  built = await build();
});

/** @param {string} name */
const integrityOfFile = (name) => integrityOf(/** @type {Buffer} */ (built.files[name]));

describe('SubresourceIntegrityPlugin', () => {
  it("gives the document's script and stylesheet the integrity of their bytes, with CORS", () => {
    const [, html] = built.text(/\.html$/);
    const [main] = built.text(/^main\..*\.js$/);
    const [css] = built.text(/^main\..*\.css$/);
    const [boot] = built.text(/^paint-first\..*\.js$/);
    // (Minified: attribute values without quotes.) The boot script, and the script it starts with its integrity.
    expect(html).toContain(`src=/${boot} data-scripts=/${main} data-integrity=${integrityOfFile(main)}`);
    expect(html).toContain(`integrity=${integrityOfFile(boot)} crossorigin=anonymous></script>`);
    expect(html).toContain(`href=/${css} rel=stylesheet integrity=${integrityOfFile(css)} crossorigin=anonymous`);
  });

  it('puts the final integrity of each chunk in the runtime, and refuses a chunk it does not name', () => {
    const [, runtime] = built.text(/^main\..*\.js$/);
    const [chunk] = built.text(/^(?!main)\d+\..*\.js$/);
    const [css] = built.text(/^(?!main)\d+\..*\.css$/);
    expect(runtime).not.toContain('NGTMSRI');
    expect(runtime).toContain(`"${integrityOfFile(chunk)}"`);
    expect(runtime).toContain(`"${integrityOfFile(css)}"`);
    expect(runtime.split(REFUSED_INTEGRITY)).toHaveLength(3);
  });

  it('loads a chunk and its stylesheet with their integrity', () => {
    const [, runtime] = built.text(/^main\..*\.js$/);
    const [chunk] = built.text(/^(?!main)\d+\..*\.js$/);
    /** @type {{ src?: string, href?: string, integrity?: string }[]} */
    const added = [];
    const element = () => ({ setAttribute() {}, getAttribute: () => null });
    const document = {
      baseURI: 'http://site.test/',
      currentScript: null,
      getElementsByTagName: () => [],
      createElement: () => element(),
      head: { appendChild: (/** @type {(typeof added)[number]} */ node) => added.push(node) },
    };
    const window = { location: { origin: 'http://site.test' } };
    const context = vm.createContext({ document, window, self: {}, setTimeout: () => 0, clearTimeout() {} });
    vm.runInContext(runtime, context);
    const [css] = built.text(/^(?!main)\d+\..*\.css$/);
    expect(added.map(({ src, href, integrity }) => [path.basename(src ?? href ?? ''), integrity])).toEqual([
      [css, integrityOfFile(css)],
      [chunk, integrityOfFile(chunk)],
    ]);
  });

  it('compresses the final bytes', () => {
    const [main] = built.text(/^main\..*\.js$/);
    const gzipped = /** @type {Buffer} */ (built.files[`${main}.gz`]);
    expect(zlib.gunzipSync(gzipped).equals(/** @type {Buffer} */ (built.files[main]))).toBe(true);
  });
});
