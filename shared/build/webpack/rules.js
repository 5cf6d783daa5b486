// The loader rules the browser builds and the server render have in common, so both compile the same code into the
// same class names.
const path = require('node:path');

const repoRoot = path.resolve(__dirname, '../../..');

// Loaders by path, resolved from this package: webpack looks a loader's bare name up from the package being built
// (its context), which declares none of them; npm's hoisting alone would find them there.
const TS_LOADER = require.resolve('ts-loader');
const CSS_LOADER = require.resolve('css-loader');

/**
 * @param {boolean} production
 * @returns {import('webpack').RuleSetRule}
 */
function tsRule(production) {
  return {
    test: /\.tsx?$/,
    exclude: /node_modules/,
    use: {
      loader: TS_LOADER,
      // Type errors are caught by `npm run typecheck` (tsc -b over the whole repo); the bundler only strips types.
      options: {
        transpileOnly: true,
        configFile: path.join(repoRoot, 'tsconfig.base.json'),
        compilerOptions: { rootDir: repoRoot, sourceMap: production },
      },
    },
  };
}

/**
 * css-loader's `modules` options.
 * @typedef {object} CssModulesOptions
 * @property {RegExp} auto
 * @property {string} localIdentContext
 * @property {string} localIdentName
 * @property {boolean} namedExport
 * @property {'as-is'} exportLocalsConvention
 */

/**
 * @param {boolean} production
 * @returns {CssModulesOptions}
 */
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

module.exports = { repoRoot, tsRule, cssModules, CSS_LOADER };
