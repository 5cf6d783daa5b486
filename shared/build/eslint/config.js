// Lint rules for every package: TypeScript (typescript-eslint), React hooks and accessibility (jsx-a11y). The
// repository's eslint.config.js is this file; its globs are relative to the repository root.
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const reactHooks = require('eslint-plugin-react-hooks');
const jsxA11y = require('eslint-plugin-jsx-a11y');
const globals = require('globals');
const { rule: noRelativePackageImports } = require('./noRelativePackageImports');
const { rule: packageBoundaries } = require('./packageBoundaries');
const { rule: fileNames } = require('./fileNames');
const { layers } = require('./layers');

const sharedInternals = [
  {
    group: ['@nativegtm/design-system/src/*', '@nativegtm/design-system/src'],
    message: "Import from '@nativegtm/design-system'.",
  },
];

module.exports = tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/coverage/**',
      'screenshots/**',
      'bench-results/**',
      'tests/.artifacts/**',
      'node_modules/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Packages meet through their names only (noRelativePackageImports.js); one naming convention (fileNames.js).
    files: ['**/*.{js,ts,tsx}'],
    plugins: {
      nativegtm: {
        rules: {
          'no-relative-package-imports': noRelativePackageImports,
          'package-boundaries': packageBoundaries,
          'file-names': fileNames,
        },
      },
    },
    rules: { 'nativegtm/no-relative-package-imports': 'error', 'nativegtm/file-names': 'error' },
  },
  ...layers,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // shared/'s public API is its index.ts (plus ./standalone): the shell and the remotes never reach into its
    // internals, so the design system can change its files without breaking a deployed remote.
    files: ['shell/**/*.{ts,tsx}', '*-mfe/**/*.{ts,tsx}', 'tests/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: sharedInternals }] },
  },
  {
    // A page runs inside the shell's router and reaches it through @nativegtm/design-system (shared/design-system/src/router.ts): its
    // own copy of react-router-dom would see no router. Tests render pages in a router of their own and may import it.
    files: ['*-mfe/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', '*-mfe/src/bootstrap.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: sharedInternals,
          paths: ['react-router-dom', 'react-router'].map((name) => ({
            name,
            message: "Import the router API from @nativegtm/design-system: the page must use the shell's router.",
          })),
        },
      ],
    },
  },
  {
    // Build, server and config scripts run in Node as CommonJS.
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The paint-first boot script runs in the browser as it is (no bundler); its test runs it in jsdom.
    files: ['shared/build/paintFirst/boot.js', 'shared/build/paintFirst/boot.test.js'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    // The benchmark's functions passed to page.evaluate run in the browser.
    files: ['tests/bench/measure.js'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    files: ['**/*.test.{ts,tsx,js}', 'tests/**/*.ts'],
    languageOptions: { globals: { ...globals.node, ...globals.jest } },
  },
);
