const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const webpack = require('webpack');
const MiniCssExtractPlugin = require('mini-css-extract-plugin');
const { CSS_LOADER } = require('../webpack/rules');
const { CorsScriptsPlugin } = require('./corsScripts');

/**
 * Builds an entry that loads a chunk with a stylesheet, and returns webpack's runtime code from the entry's file.
 * @param {import('webpack').WebpackPluginInstance[]} plugins
 * @returns {Promise<string>}
 */
async function runtimeCode(plugins) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cors-scripts-'));
  try {
    fs.writeFileSync(path.join(dir, 'entry.js'), "import('./page.js');\n");
    fs.writeFileSync(path.join(dir, 'page.js'), "import './page.css';\nexport default 1;\n");
    fs.writeFileSync(path.join(dir, 'page.css'), 'p { color: red; }\n');
    /** @type {import('webpack').Configuration} */
    const config = {
      mode: 'none',
      context: dir,
      entry: { main: './entry.js' },
      output: { path: path.join(dir, 'dist'), publicPath: 'auto' },
      module: { rules: [{ test: /\.css$/, use: [MiniCssExtractPlugin.loader, CSS_LOADER] }] },
      plugins: [new MiniCssExtractPlugin(), ...plugins],
    };
    await new Promise((resolve, reject) =>
      webpack(config, (error, stats) => {
        if (error || stats?.hasErrors()) reject(error ?? new Error(stats?.toString('errors-only')));
        else resolve(stats);
      }),
    );
    return fs.readFileSync(path.join(dir, 'dist/main.js'), 'utf8');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// Two real webpack compilations: a second or two alone, well past jest's 5 s on a machine busy building beside it
// (`npm run check` runs the packages' tests side by side).
jest.setTimeout(60_000);

describe('CorsScriptsPlugin', () => {
  it('loads the chunks of another origin with CORS, scripts only: stylesheets stay as the server links them', async () => {
    const [plain, cors] = await Promise.all([runtimeCode([]), runtimeCode([new CorsScriptsPlugin()])]);
    /** The lines that set crossOrigin, without webpack's comment margin. */
    const crossOrigin = (/** @type {string} */ code) =>
      code
        .split('\n')
        .filter((line) => line.includes('crossOrigin'))
        .map((line) => line.replace(/^[/*\s]+/, ''));
    expect(crossOrigin(plain)).toEqual([]);
    expect(crossOrigin(cors)).toEqual([
      "if (script.src.indexOf(window.location.origin + '/') !== 0) script.crossOrigin = 'anonymous';",
    ]);
    // The stylesheet's loader is still there, unmarked.
    expect(cors).toContain('createStylesheet');
  });
});
