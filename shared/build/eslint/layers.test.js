/** @jest-environment node */
// Every file ESLint lints is in a layer (layers.js): a file outside every layer could import anything.
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { ESLint } = require('eslint');

const repoRoot = path.resolve(__dirname, '../../..');
const eslint = new ESLint({
  cwd: repoRoot,
  overrideConfigFile: true,
  overrideConfig: /** @type {import('eslint').Linter.Config[]} */ (require('./config')),
});

/** The repository's files (tracked or new, not ignored) that ESLint reads by their extension. */
const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '*.js', '*.ts', '*.tsx'], {
  cwd: repoRoot,
  encoding: 'utf8',
})
  .split('\n')
  .filter(Boolean);

// Files of a package that does not exist yet, which must be in a layer as soon as it does.
const planned = ['shared/tools/release.js', 'shared/tools/release.test.js', 'shared/tools/testing/fakeStore.js'];

/** @param {string} file relative to the repository root */
async function layerOf(file) {
  const absolute = path.join(repoRoot, file);
  if (await eslint.isPathIgnored(absolute)) return 'ignored';
  /** @type {{ rules?: Record<string, [unknown, { layer?: string }?]> }} */
  const config = await eslint.calculateConfigForFile(absolute);
  return config.rules?.['nativegtm/package-boundaries']?.[1]?.layer ?? null;
}

describe('the layers of the repository', () => {
  it('take in every file ESLint lints', async () => {
    const outside = [];
    for (const file of [...files, ...planned]) if ((await layerOf(file)) === null) outside.push(file);
    expect(outside).toEqual([]);
  });

  it.each([
    ['shell/src/index.ts', 'browser code'],
    ['shell/src/testing/renderShellAt.tsx', "a browser package's tests"],
    ['shared/build/fuzzSeed.js', "the build's tests and jest setup"],
    ['shared/store/operations.js', 'the release store'],
    ['shared/store/testing/fakeBuild.js', "the release store's tests"],
    ['shared/server/releases/testing/fakeBuild.js', "the servers' tests"],
    ['shared/tools/release.js', 'the tools (release commands and gate, nginx configuration, dev runner)'],
    ['jobs-mfe/webpack.config.js', 'configuration files (build code)'],
    ['tests/jest.config.js', 'configuration files (build code)'],
    ['tests/fixtures/throwing-page/src/Page.tsx', 'browser code'],
  ])('put %s in %s', async (file, layer) => {
    expect(await layerOf(file)).toBe(layer);
  });
});
