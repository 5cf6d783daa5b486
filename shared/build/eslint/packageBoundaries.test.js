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
  // Browser code: no Node package, however it is declared, and no build or test tool.
  ['shell/src/planted.ts', "import { chromium } from 'playwright-core';"],
  ['jobs-mfe/src/planted.tsx', "import pino from 'pino';"],
  ['shared/design-system/src/planted.ts', "import sirv from 'sirv';"],
  ['shared/design-system/src/planted.ts', "import { getInstance } from '@module-federation/runtime';"],
  ['tests/fixtures/throwing-page/src/planted.tsx', "import { readFileSync } from 'node:fs';"],
  ['shell/src/planted.ts', "import { getInstance } from '@module-federation/enhanced/runtime';"],
  ['shell/src/planted.ts', "import fc from 'fast-check';"],
  // Node code: only what its own package.json declares (its tests also the root's tools).
  ['shared/server/planted.js', "const webpack = require('webpack');"],
  ['shared/server/planted.js', "const fc = require('fast-check');"],
  ['shared/build/planted.js', "const pino = require('pino');"],
  ['shared/build/planted.js', "const prettier = require('prettier');"],
  ['tests/support/planted.ts', "import express from 'express';"],
  // The servers run the site; the tools run the servers, never the other way round.
  ['shared/server/planted.js', "const { release } = require('@nativegtm/tools/release');"],
  ['shared/server/planted.test.js', "const { release } = require('@nativegtm/tools/release');"],
  ['shared/tools/planted.js', "const { createShellConfig } = require('@nativegtm/build/webpack');"],
  ['shared/tools/planted.js', "const { Button } = require('@nativegtm/design-system');"],
  // Configuration files are build code.
  ['jobs-mfe/webpack.config.js', "const { startSite } = require('@nativegtm/server/startSite');"],
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
  ['tests/support/planted.ts', "import { chromium } from 'playwright-core';"],
  ['shell/src/planted.ts', "import { getInstance } from '@module-federation/runtime';"],
  ['shell/src/planted.ts', "import * as runtimeCore from '@module-federation/runtime-core';"],
  ['shell/src/planted.ts', "import { createRoot } from 'react-dom/client';"],
  ['shell/src/planted.test.tsx', "import { render } from '@testing-library/react';"],
  ['shell/src/testing/planted.tsx', "import { render } from '@testing-library/react';"],
  ['shared/design-system/src/planted.test.ts', "import fc from 'fast-check';"],
  ['shared/server/planted.test.js', "const fc = require('fast-check');"],
  ['shared/build/planted.js', "const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');"],
  ['shared/build/planted.js', "const loader = require.resolve('ts-loader');"],
  ['shared/build/planted.test.js', "const { ESLint } = require('eslint');"],
  ['shared/tools/planted.js', "const { startSite } = require('@nativegtm/server/startSite');"],
  ['shared/tools/planted.js', "const { pages } = require('@nativegtm/contract/pages');"],
  ['shared/tools/planted.js', "const { spawn } = require('node:child_process');"],
];

/** @param {string} dir */
const dependenciesOf = (dir) =>
  Object.keys(
    /** @type {{ dependencies?: Record<string, string> }} */ (require(path.join(repoRoot, dir, 'package.json')))
      .dependencies ?? {},
  );

// The Node layers' npm packages are what their package.json declares: each dependency is allowed there.
for (const dir of ['shared/server', 'shared/build']) {
  for (const name of dependenciesOf(dir).filter((dependency) => !dependency.startsWith('@nativegtm/'))) {
    allowed.push([`${dir}/planted.js`, `const planted = require('${name}');`]);
  }
}

describe('who may import whom', () => {
  it.each(refused)('refuses, in %s: %s', async (file, code) => {
    expect(await boundaryProblems(file, code)).toHaveLength(1);
  });

  it.each(allowed)('allows, in %s: %s', async (file, code) => {
    expect(await boundaryProblems(file, code)).toEqual([]);
  });
});
