// The compilations each deployable's build is made of, and what ties them together: their names and order, where they
// write, and one build id for all of them.
const path = require('node:path');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const { DefinePlugin } = require('webpack');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const { createShellConfig, createRemoteConfig, repoRoot } = require('./index');
const { LinkAllStylesheetsPlugin } = require('../plugins/linkAllStylesheets');
const { PaintFirstPlugin } = require('../paintFirst/plugin');

/** @typedef {import('webpack').Configuration} Configuration */

/**
 * @param {Configuration | Configuration[]} config
 * @returns {Configuration[]}
 */
const compilations = (config) => (Array.isArray(config) ? config : [config]);

/**
 * @param {Configuration} config
 * @returns {string[]}
 */
const pluginNames = (config) => (config.plugins ?? []).map((plugin) => (plugin ? plugin.constructor.name : ''));

/**
 * The build id a compilation's code is marked with.
 * @param {Configuration} config
 */
function buildIdOf(config) {
  const define = (config.plugins ?? []).find((plugin) => plugin instanceof DefinePlugin);
  if (!(define instanceof DefinePlugin)) throw new Error(`${config.name}: no DefinePlugin`);
  return define.definitions.__NATIVEGTM_BUILD_ID__;
}

const shellDir = path.join(repoRoot, 'shell');
const jobsDir = path.join(repoRoot, 'jobs-mfe');

describe('createShellConfig', () => {
  it('builds the shell, then renders its 404 screen, with one build id', () => {
    const [shell, notFound, ...more] = compilations(createShellConfig({ packageDir: shellDir, port: 3000 }));
    if (!shell || !notFound) throw new Error('expected two compilations');
    expect(more).toEqual([]);
    expect([shell.name, notFound.name]).toEqual(['shell', 'ssr']);
    expect(notFound.dependencies).toEqual(['shell']);
    expect(shell.output?.path).toBe(path.join(shellDir, 'dist'));
    expect(shell.output?.filename).toBe('[name].[contenthash:10].js');
    expect(buildIdOf(notFound)).toBe(buildIdOf(shell));
    expect(pluginNames(shell)).toEqual([
      'DefinePlugin',
      'MiniCssExtractPlugin',
      'HtmlWebpackPlugin',
      'SubresourceIntegrityPlugin',
      'CompressionPlugin',
      'CompressionPlugin',
      'CopyPlugin',
      'ShippedRemotesPlugin',
      'ModuleFederationPlugin',
      'LinkAllStylesheetsPlugin',
      'PaintFirstPlugin',
    ]);
  });

  it('is one compilation without compression or server render in development', () => {
    const [shell, ...more] = compilations(createShellConfig({ packageDir: shellDir, port: 3000, mode: 'development' }));
    if (!shell) throw new Error('expected a compilation');
    expect(more).toEqual([]);
    expect(shell.output?.filename).toBe('[name].js');
    expect(pluginNames(shell)).not.toContain('CompressionPlugin');
    expect(pluginNames(shell)).not.toContain('SubresourceIntegrityPlugin');
    expect(shell.plugins?.some((plugin) => plugin instanceof LinkAllStylesheetsPlugin)).toBe(true);
    expect(shell.plugins?.some((plugin) => plugin instanceof PaintFirstPlugin)).toBe(true);
  });

  it("takes the collector's field-data beacons on the development server, and passes everything else on", () => {
    const [shell] = compilations(createShellConfig({ packageDir: shellDir, port: 3000, mode: 'development' }));
    const setup = shell?.devServer?.setupMiddlewares;
    if (!setup) throw new Error('expected the development server to take field data');
    const files = () => undefined;
    const [first, ...rest] = setup([files], /** @type {never} */ ({}));
    expect(rest).toEqual([files]);
    const { path: mounted, middleware } = /** @type {{ path: string, middleware: Function }} */ (first);
    expect(mounted).toBe('/_field-data');
    const answer = { statusCode: 200, end: jest.fn() };
    const next = jest.fn();
    middleware({ method: 'POST', resume: () => undefined }, answer, next);
    expect([answer.statusCode, answer.end.mock.calls.length, next.mock.calls.length]).toEqual([204, 1, 0]);
    middleware({ method: 'GET' }, answer, next);
    expect(next).toHaveBeenCalledTimes(1);
  });
});

describe('createRemoteConfig', () => {
  it('builds the container, then the page alone and its server render, into dist/ with one build id', () => {
    const [container, standalone, ssr, ...more] = compilations(createRemoteConfig({ packageDir: jobsDir }));
    if (!container || !standalone || !ssr) throw new Error('expected three compilations');
    expect(more).toEqual([]);
    expect([container.name, standalone.name, ssr.name]).toEqual(['container', 'standalone', 'ssr']);
    expect([standalone.dependencies, ssr.dependencies]).toEqual([['container'], ['container', 'standalone']]);
    expect(container.entry).toEqual({});
    expect(container.plugins?.some((plugin) => plugin instanceof HtmlWebpackPlugin)).toBe(false);
    expect(container.plugins?.some((plugin) => plugin instanceof ModuleFederationPlugin)).toBe(true);
    expect(standalone.plugins?.some((plugin) => plugin instanceof ModuleFederationPlugin)).toBe(false);
    expect([container.output?.path, standalone.output?.path]).toEqual([
      path.join(jobsDir, 'dist'),
      path.join(jobsDir, 'dist'),
    ]);
    // The standalone compilation writes beside the container's files, which it must not clean.
    expect([container.output?.clean, standalone.output?.clean]).toEqual([true, false]);
    expect([container.output?.uniqueName, standalone.output?.uniqueName]).toEqual(['jobs-mfe', 'jobs-mfe-standalone']);
    expect(new Set([container, standalone, ssr].map(buildIdOf)).size).toBe(1);
  });

  it('writes where it is told, under the name it is given, for a package outside the registry', () => {
    const outputPath = path.join(repoRoot, 'node_modules/.cache/remote-double');
    const packageDir = path.join(repoRoot, 'tests/fixtures/throwing-page');
    const configs = compilations(
      createRemoteConfig({ packageDir, name: 'jobs', title: 'jobs', port: 0, outputPath, route: '/featured-jobs' }),
    );
    expect(configs.slice(0, 2).map((config) => config.output?.path)).toEqual([outputPath, outputPath]);
  });

  it('is one compilation that carries its own federation runtime in development', () => {
    const [remote, ...more] = compilations(createRemoteConfig({ packageDir: jobsDir, mode: 'development' }));
    if (!remote) throw new Error('expected a compilation');
    expect(more).toEqual([]);
    expect(pluginNames(remote)).toEqual([
      'DefinePlugin',
      'MiniCssExtractPlugin',
      'HtmlWebpackPlugin',
      'ModuleFederationPlugin',
    ]);
  });

  it('refuses a package that is not in the registry of pages', () => {
    expect(() => createRemoteConfig({ packageDir: path.join(repoRoot, 'unknown-mfe') })).toThrow(
      'is not in shared/contract/pages.js',
    );
  });
});
