// Webpack loader for the registry of pages (shared/contract/pages.js) in browser bundles: they get what routing needs (remote,
// route, pathKey) and nothing else. Packages, ports, titles and headings are for the build, the servers and the tests;
// in the shell's bundle the headings would be page content, which only the remotes ship.
const BROWSER_FIELDS = /** @type {const} */ (['remote', 'route', 'pathKey']);

/**
 * @this {import('webpack').LoaderContext<Record<string, never>>}
 * @returns {string}
 */
module.exports = function pagesLoader() {
  const file = this.resourcePath;
  delete require.cache[require.resolve(file)];
  /** @type {typeof import('@nativegtm/contract/pages')} */
  const { pages } = require(file);
  const trimmed = pages.map((page) => Object.fromEntries(BROWSER_FIELDS.map((field) => [field, page[field]])));
  return `module.exports = { pages: ${JSON.stringify(trimmed)} };\n`;
};

/** The rule that applies this loader to the registry: in every web compilation and in the server render. */
module.exports.rule = { test: require.resolve('@nativegtm/contract/pages'), use: __filename };
