// Lint rules for every package: TypeScript (typescript-eslint), React hooks and accessibility (jsx-a11y).
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const reactHooks = require('eslint-plugin-react-hooks');
const jsxA11y = require('eslint-plugin-jsx-a11y');
const globals = require('globals');

module.exports = tseslint.config(
  { ignores: ['**/dist/**', '**/coverage/**', 'screenshots/**', 'tests/.artifacts/**', 'node_modules/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
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
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@nativegtm/shared/src/*', '@nativegtm/shared/src'],
              message: "Import from '@nativegtm/shared'.",
            },
            { group: ['**/shared/src/*', '**/shared/src'], message: "Import from '@nativegtm/shared'." },
          ],
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
    files: ['**/*.test.{ts,tsx}', 'tests/**/*.ts'],
    languageOptions: { globals: { ...globals.node, ...globals.jest } },
  },
);
