/** @jest-environment node */
// The boundary rule against planted imports: each invalid case is a relative path from one package into another.
const path = require('node:path');
const { RuleTester } = require('eslint');
const tseslint = require('typescript-eslint');
const { rule } = require('./noRelativePackageImports');

const repoRoot = path.resolve(__dirname, '../../..');
const inShell = path.join(repoRoot, 'shell/src/screens/Example.tsx');

const tester = new RuleTester({
  languageOptions: { parser: tseslint.parser, ecmaVersion: 2022, sourceType: 'module' },
});

tester.run('no-relative-package-imports', rule, {
  valid: [
    { filename: inShell, code: "import { x } from './sibling';" },
    { filename: inShell, code: "import { x } from '../remotes/pageLoader';" },
    { filename: inShell, code: "import Page from 'candidates-mfe/Page';" },
    { filename: inShell, code: "import { site } from '@nativegtm/design-system';" },
    // Files outside every package (root configuration) are not in a package to leave.
    { filename: path.join(repoRoot, 'jest.config.js'), code: "const x = require('./shared/server/jest.config');" },
    { filename: path.join(repoRoot, 'shared/server/commands/serve.js'), code: "require('../startSite');" },
  ],
  invalid: [
    {
      filename: inShell,
      code: "import * as Page from '../../../candidates-mfe/src/Page';",
      errors: [
        {
          messageId: 'leaves',
          data: { source: '../../../candidates-mfe/src/Page', own: 'shell', target: 'candidates-mfe' },
        },
      ],
    },
    {
      filename: inShell,
      code: "export * from '../../../shared/design-system/src/ui/Button/Button';",
      errors: [{ messageId: 'leaves' }],
    },
    {
      filename: inShell,
      code: "const page = import('../../../jobs-mfe/src/Page');",
      errors: [{ messageId: 'leaves' }],
    },
    {
      filename: path.join(repoRoot, 'tests/bench/bench.js'),
      code: "const config = require('../../shell/webpack.config.js');",
      errors: [{ messageId: 'leaves' }],
    },
    { filename: inShell, code: "import x from '../../../tsconfig.base.json';", errors: [{ messageId: 'leaves' }] },
    {
      filename: path.join(repoRoot, 'shared/build/webpack/rules.js'),
      code: "const loader = require.resolve('../../server/fileReader');",
      errors: [{ messageId: 'leaves' }],
    },
    {
      // The packages under shared/ are packages of their own too.
      filename: path.join(repoRoot, 'shared/server/documentComposer.js'),
      code: "const { pages } = require('../contract/pages');",
      errors: [
        { messageId: 'leaves', data: { source: '../contract/pages', own: 'shared/server', target: 'shared/contract' } },
      ],
    },
  ],
});
