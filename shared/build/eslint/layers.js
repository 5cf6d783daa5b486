// Who may import whom (packageBoundaries.js), by folder: the layers of shared/README.md, each with the packages of ours
// it may import, the npm packages it may use and whether it may use Node's own modules. Every file ESLint lints is in
// one of them (layers.test.js).
//
// Where an npm list comes from:
// - Browser code: stated here. What reaches a visitor's browser is a decision about the site, not a consequence of a
//   package.json: declaring a Node package in a browser package (for its tests, say) must not let its src/ import it.
// - Node code (the build, the servers, the tools): what its package.json declares, the one place a package's
//   dependencies are written. knip checks that each package declares what it uses; this rule keeps one layer's
//   packages out of another's files.
// - Tests, their helpers and configuration files: also the package's devDependencies and the root's, the tools
//   every package's tests and configuration use (jest, Testing Library, fast-check, TypeScript, ESLint).
const fs = require('node:fs');
const path = require('node:path');

const repoRoot = path.resolve(__dirname, '../../..');

/**
 * The packages the package.json in `dir` declares under `fields`; none while the package does not exist yet.
 * @param {string} dir relative to the repository root
 * @param {('dependencies' | 'devDependencies' | 'peerDependencies')[]} fields
 * @returns {string[]}
 */
function declared(dir, fields) {
  const file = path.join(repoRoot, dir, 'package.json');
  if (!fs.existsSync(file)) return [];
  /** @type {Record<string, Record<string, string> | undefined>} */
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
  return fields.flatMap((field) => Object.keys(manifest[field] ?? {}));
}

/** What a package ships with: its dependencies, and the peers its users provide. */
const shipped = (/** @type {string} */ dir) => declared(dir, ['dependencies', 'peerDependencies']);
/** What its tests, their helpers and its configuration may use besides. */
const forTests = (/** @type {string} */ dir) => [
  ...declared(dir, ['dependencies', 'peerDependencies', 'devDependencies']),
  ...declared('.', ['devDependencies']),
];

const REACT = ['react', 'react-dom', 'react-router-dom'];
/**
 * The npm packages browser code may use: React and its renderer and router, the federation runtime the shell
 * publishes for the remotes (its API, @module-federation/runtime, and its core), cookie (the preview notice reads
 * document.cookie with the parser the server uses) and web-vitals (the shell's field-data collector, in a chunk of
 * its own that loads once the page is idle; pinned to one version, since its soft-navigation and attribution fields
 * still change between minor versions). Not @module-federation/enhanced: that is the build's webpack plugin.
 */
const BROWSER = [...REACT, '@module-federation/runtime', '@module-federation/runtime-core', 'cookie', 'web-vitals'];

/** Code that runs only in tests: the tests, their helpers, and the jest setup the build gives every package. */
const TEST_CODE = [
  '**/*.test.{js,ts,tsx}',
  '**/testing/**',
  'shared/build/{fuzzSeed,jestEnvironment,styleStub}.js',
  'shared/build/jestSetup.ts',
];
/** Configuration files (the root's, a package's webpack.config.js and jest.config.js): build code. */
const CONFIG_FILES = ['*.config.js', '*/*.config.js', 'shared/*/*.config.js'];

const BROWSER_SRC = ['shell/src/**/*.{ts,tsx}', '*-mfe/src/**/*.{ts,tsx}', 'tests/fixtures/*/src/**/*.{ts,tsx}'];
const BROWSER_TESTS = [
  'shell/src/**/*.test.{ts,tsx}',
  'shell/src/testing/**',
  '*-mfe/src/**/*.test.{ts,tsx}',
  'shared/design-system/src/**/*.test.{ts,tsx}',
];

/**
 * @param {string[]} files
 * @param {string[]} ignores
 * @param {import('./packageBoundaries').Allowed} allowed
 * @returns {import('eslint').Linter.Config}
 */
const layer = (files, ignores, allowed) => ({
  files,
  ignores,
  rules: { 'nativegtm/package-boundaries': ['error', allowed] },
});

const CONTRACT = '@nativegtm/contract';
const DESIGN_SYSTEM = '@nativegtm/design-system';
const BUILD = '@nativegtm/build';
const STORE = '@nativegtm/store';
const SERVER = '@nativegtm/server';
const TOOLS = '@nativegtm/tools';
const DEPLOY = '@nativegtm/deploy';

/** @type {import('eslint').Linter.Config[]} */
const layers = [
  layer(['shared/contract/**/*.js'], [...TEST_CODE, ...CONFIG_FILES], {
    layer: 'the contract (plain data and pure functions)',
    ours: [],
    external: false,
    builtins: false,
  }),
  layer(['shared/contract/**/*.test.js'], [], {
    layer: "the contract's tests",
    ours: [CONTRACT],
    external: forTests('shared/contract'),
    builtins: true,
  }),
  layer(['shared/design-system/src/**/*.{ts,tsx}'], TEST_CODE, {
    layer: 'the design system (browser code)',
    ours: [CONTRACT],
    // nativegtm-ssr-page: the alias the server-render bundle gives the page being rendered (ssr.js).
    external: [...REACT, 'nativegtm-ssr-page'],
    builtins: false,
  }),
  layer(BROWSER_SRC, TEST_CODE, {
    layer: 'browser code',
    ours: [CONTRACT, DESIGN_SYSTEM],
    external: BROWSER,
    builtins: false,
  }),
  layer(BROWSER_TESTS, [], {
    layer: "a browser package's tests",
    ours: [CONTRACT, DESIGN_SYSTEM],
    external: [...BROWSER, ...forTests('.')],
    builtins: true,
  }),
  layer(['shared/build/**/*.{js,ts}'], [...TEST_CODE, ...CONFIG_FILES], {
    layer: 'the build',
    // The server render bundles the design system's entry for it (ssr.js), and nothing else of it.
    ours: [CONTRACT, BUILD, `${DESIGN_SYSTEM}/ssr/server-entry`],
    external: shipped('shared/build'),
    builtins: true,
  }),
  layer(['shared/build/**/*.test.js', ...TEST_CODE.filter((glob) => glob.startsWith('shared/build/'))], [], {
    layer: "the build's tests and jest setup",
    ours: [CONTRACT, BUILD],
    external: forTests('shared/build'),
    builtins: true,
  }),
  layer(['shared/store/**/*.js'], [...TEST_CODE, ...CONFIG_FILES], {
    layer: 'the release store',
    // Neither the servers nor the tools: both read it, the tools change it.
    ours: [CONTRACT, STORE],
    external: shipped('shared/store'),
    builtins: true,
  }),
  layer(['shared/store/**/*.test.js', 'shared/store/**/testing/**/*.js'], [], {
    layer: "the release store's tests",
    ours: [CONTRACT, STORE],
    external: forTests('shared/store'),
    builtins: true,
  }),
  layer(['shared/server/**/*.js', 'shared/server/types/*.d.ts'], [...TEST_CODE, ...CONFIG_FILES], {
    layer: 'the servers',
    // Never the tools: the servers are what runs the site; the tools (release, gate, nginx configuration, dev
    // runner) run them, not the other way round.
    ours: [CONTRACT, STORE, SERVER],
    external: shipped('shared/server'),
    builtins: true,
  }),
  layer(['shared/server/**/*.test.js', 'shared/server/**/testing/**/*.js'], [], {
    layer: "the servers' tests",
    ours: [CONTRACT, STORE, SERVER],
    external: forTests('shared/server'),
    builtins: true,
  }),
  layer(['shared/tools/**/*.js'], [...TEST_CODE, ...CONFIG_FILES], {
    layer: 'the tools (release commands and gate, nginx configuration, dev runner)',
    ours: [CONTRACT, STORE, SERVER, TOOLS],
    external: shipped('shared/tools'),
    builtins: true,
  }),
  layer(['shared/tools/**/*.test.js', 'shared/tools/**/testing/**/*.js'], [], {
    layer: "the tools' tests",
    ours: [CONTRACT, STORE, SERVER, TOOLS],
    external: forTests('shared/tools'),
    builtins: true,
  }),
  layer(['shared/deploy/**/*.js'], [...TEST_CODE, ...CONFIG_FILES], {
    layer: 'the deploy API',
    // It runs the release commands' rules and gate for teams' pipelines: the tools, never the other way round.
    ours: [CONTRACT, STORE, SERVER, TOOLS, DEPLOY],
    external: shipped('shared/deploy'),
    builtins: true,
  }),
  layer(['shared/deploy/**/*.test.js', 'shared/deploy/**/testing/**/*.js'], [], {
    layer: "the deploy API's tests",
    ours: [CONTRACT, STORE, SERVER, TOOLS, DEPLOY],
    external: forTests('shared/deploy'),
    builtins: true,
  }),
  layer(['shell/ogImage/**/*.js'], [], {
    layer: "the shell's scripts (run by hand, in Node)",
    ours: [],
    external: forTests('shell'),
    builtins: true,
  }),
  layer(CONFIG_FILES, [], {
    layer: 'configuration files (build code)',
    ours: [CONTRACT, BUILD],
    external: forTests('.'),
    builtins: true,
  }),
  layer(['tests/**/*.{js,ts,tsx}'], ['tests/fixtures/*/src/**', 'tests/jest.config.js'], {
    layer: 'the integration tests, the bench and the soak',
    // Any of ours that tests/package.json declares.
    ours: declared('tests', ['dependencies', 'devDependencies']),
    external: forTests('tests'),
    builtins: true,
  }),
];

module.exports = { layers };
