// What every container shares, and how. One list for all five builds: if the shell and a remote disagreed here,
// the page could end up with two Reacts (broken hooks) or two routers (links that reload the page).
const path = require('node:path');

/**
 * @param {string} packageDir
 * @param {string} dependency
 * @returns {string}
 */
function declaredRange(packageDir, dependency) {
  /** @type {{ name: string, dependencies?: Record<string, string>, peerDependencies?: Record<string, string> }} */
  const pkg = require(path.join(packageDir, 'package.json'));
  const range = (pkg.dependencies || {})[dependency] || (pkg.peerDependencies || {})[dependency];
  if (!range) {
    throw new Error(`${pkg.name} must declare "${dependency}" in its dependencies: it is a shared singleton.`);
  }
  return range;
}

/**
 * Subpath entries are listed on their own: sharing "react" alone still bundles a private react/jsx-runtime.
 *
 * react-router-dom is not on the list: a package shared as a singleton cannot be tree-shaken (the shell provides it
 * whole, for any export a remote might ask for), which costs 30 KB of gzip JavaScript on every first visit. The
 * router runs in the shell, tree-shaken with the shell's code; pages reach it through @nativegtm/design-system, which
 * re-exports the router API they may use (shared/design-system/src/router.ts), so it is still one router for the whole page.
 */
const SINGLETONS = {
  react: 'react',
  'react/jsx-runtime': 'react',
  'react-dom': 'react-dom',
  'react-dom/client': 'react-dom',
  '@nativegtm/design-system': '@nativegtm/design-system',
};

/**
 * The Module Federation `shared` option of the package in packageDir, with the versions it declares.
 * @param {string} packageDir
 */
function sharedSingletons(packageDir) {
  /** @type {Record<string, { singleton: boolean, requiredVersion: string }>} */
  const shared = {};
  for (const [request, owner] of Object.entries(SINGLETONS)) {
    shared[request] = { singleton: true, requiredVersion: declaredRange(packageDir, owner) };
  }
  return shared;
}

module.exports = { sharedSingletons };
