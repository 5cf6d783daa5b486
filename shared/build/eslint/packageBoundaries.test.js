/** @jest-environment node */
// The layers of the repository against planted imports, linted with the repository's own ESLint configuration: each
// file below does not exist, ESLint only reads its path to pick the rules.
const path = require('node:path');
const { ESLint } = require('eslint');

const repoRoot = path.resolve(__dirname, '../../..');
// The configuration object itself (ESLint would load eslint.config.js with a dynamic import, which jest cannot run).
const eslint = new ESLint({
  cwd: repoRoot,
  overrideConfigFile: true,
  overrideConfig: /** @type {import('eslint').Linter.Config[]} */ (require('./config')),
});

/**
 * The boundary problems ESLint reports for `code` at `file`.
 * @param {string} file relative to the repository root
 * @param {string} code
 */
async function boundaryProblems(file, code) {
  const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, file) });
  return (result?.messages ?? []).filter((message) => message.ruleId === 'nativegtm/package-boundaries');
}

const refused = [
  ['shared/contract/planted.js', "const { Button } = require('@nativegtm/design-system');"],
  ['shared/contract/planted.js', "const { deployables } = require('@nativegtm/server/deployables');"],
  ['shared/contract/planted.js', "const fs = require('node:fs');"],
  ['shared/contract/planted.js', "const React = require('react');"],
  ['shared/contract/planted.js', "const server = import('@nativegtm/server/startSite');"],
  ['shared/design-system/src/planted.ts', "import { deployables } from '@nativegtm/server/deployables';"],
  ['shared/design-system/src/planted.ts', "import { createJestProject } from '@nativegtm/build/jest';"],
  ['shared/design-system/src/planted.ts', "import { readFileSync } from 'node:fs';"],
  ['shared/design-system/src/planted.ts', "import { x } from 'lodash';"],
  ['shell/src/planted.ts', "import { deployables } from '@nativegtm/server/deployables';"],
  ['shell/src/planted.ts', "export * from '@nativegtm/build/webpack';"],
  ['shell/src/planted.ts', "type T = import('@nativegtm/server/siteMeta').X;"],
  ['jobs-mfe/src/planted.tsx', "import { startSite } from '@nativegtm/server/startSite';"],
  ['jobs-mfe/src/planted.tsx', "import { readFileSync } from 'node:fs';"],
  ['shared/server/planted.js', "const { Button } = require('@nativegtm/design-system');"],
  ['shared/server/planted.js', "const { createShellConfig } = require('@nativegtm/build/webpack');"],
  ['shared/build/planted.js', "const { startSite } = require('@nativegtm/server/startSite');"],
  ['shared/build/planted.js', "const { Button } = require('@nativegtm/design-system');"],
  // A path resolved from a package is loaded from it all the same.
  ['shell/src/planted.ts', "const start = require.resolve('@nativegtm/server/startSite');"],
  ['shared/contract/planted.js', "const fs = require.resolve('node:fs');"],
];

const allowed = [
  ['shared/contract/planted.js', "const { pages } = require('./pages');"],
  ['shared/contract/planted.test.js', "const fs = require('node:fs');"],
  ['shared/design-system/src/planted.ts', "import { pages } from '@nativegtm/contract/pages';"],
  ['shared/design-system/src/planted.ts', "import { useState } from 'react';"],
  ['shell/src/planted.ts', "import { Button } from '@nativegtm/design-system';"],
  ['shell/src/planted.ts', "import { pageForPath } from '@nativegtm/contract/routes';"],
  ['jobs-mfe/src/planted.tsx', "import { paths } from '@nativegtm/design-system';"],
  ['jobs-mfe/webpack.config.js', "const { createRemoteConfig } = require('@nativegtm/build/webpack');"],
  ['shared/server/planted.js', "const { readRemotesConfig } = require('@nativegtm/contract/remotesConfig');"],
  ['shared/server/planted.js', "const sirv = require('sirv');"],
  ['shared/build/planted.js', "const { pages } = require('@nativegtm/contract/pages');"],
  ['shared/build/planted.js', "const entry = require.resolve('@nativegtm/design-system/ssr/server-entry');"],
  ['tests/support/planted.ts', "import { startSite } from '@nativegtm/server/startSite';"],
];

describe('who may import whom', () => {
  it.each(refused)('refuses, in %s: %s', async (file, code) => {
    expect(await boundaryProblems(file, code)).toHaveLength(1);
  });

  it.each(allowed)('allows, in %s: %s', async (file, code) => {
    expect(await boundaryProblems(file, code)).toEqual([]);
  });
});
