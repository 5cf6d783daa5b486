const path = require('node:path');
const { pages } = require('@nativegtm/contract/pages');
const { createSsrConfig } = require('../ssr');
const { tsRule, cssModules } = require('./rules');

/**
 * The package's route, from the registry of pages.
 * @param {string} packageDir
 * @returns {string}
 */
function routeOf(packageDir) {
  const page = pages.find((candidate) => candidate.package === path.basename(packageDir));
  if (!page) throw new Error(`${packageDir} has no route in the registry of pages (@nativegtm/contract/pages)`);
  return page.route;
}

/**
 * The compilation that renders a package's page to HTML at build time (../ssr.js), with the browser build's class
 * names.
 * @param {{ packageDir: string, name: string, pageModule: string, buildId: string,
 *   mode: import('./baseConfig').Mode, distDir?: string, route?: string }} options
 * @returns {import('webpack').Configuration}
 */
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

module.exports = { serverRenderConfig };
