/** @jest-environment node */
// The repository's knip configuration (knip.jsonc) and the command that runs it (`npm run knip`) against planted
// files: a miniature of the repository in a temporary folder, with the real configuration and the real command.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const repoRoot = path.resolve(__dirname, '../..');
/** @type {{ scripts: Record<string, string> }} */
const { scripts } = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));

/** @typedef {Record<string, string | object>} Tree a file's path → its text, or the object a package.json holds */

/**
 * Two packages as the repository has them: the servers (Node, a dependency of their own) and the shell (browser code
 * with a test), and a root whose devDependencies are the tools every package's tests use.
 * @type {Tree}
 */
const miniature = {
  'package.json': {
    private: true,
    workspaces: ['shared/*', 'shell', '*-mfe'],
    scripts: { test: 'jest' },
    devDependencies: { jest: '^30.5.2', 'fast-check': '^4.10.2' },
  },
  'shared/server/package.json': {
    name: '@nativegtm/server',
    private: true,
    exports: { './startSite': './startSite.js' },
    dependencies: { sirv: '^3.0.2' },
  },
  'shared/server/startSite.js':
    "const sirv = require('sirv');\n\nmodule.exports = { startSite: () => sirv('dist') };\n",
  'shared/contract/package.json': { name: '@nativegtm/contract', private: true, exports: { './pages': './pages.js' } },
  'shared/contract/pages.js': 'module.exports = { pages: [] };\n',
  'shell/package.json': { name: 'shell', private: true, dependencies: { react: '^19.3.1' } },
  'shell/src/index.ts': "import { createElement } from 'react';\n\ncreateElement('main');\n",
  // A test may use the root's tools.
  'shell/src/index.test.ts': "import fc from 'fast-check';\n\ntest('fast-check', () => expect(fc).toBeDefined());\n",
};

/**
 * Runs `npm run knip`'s command in the miniature with `planted` added (a package.json's fields are merged).
 * @param {Tree} planted
 * @returns {{ status: number | null, output: string }}
 */
function knip(planted) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-knip-'));
  try {
    fs.copyFileSync(path.join(repoRoot, 'knip.jsonc'), path.join(dir, 'knip.jsonc'));
    // The repository's installed packages: knip reads their package.json files (which binaries they have, whose
    // types they carry) to tell a used dependency from an unused one.
    fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    for (const [file, content] of Object.entries({ ...miniature, ...planted })) {
      const base = miniature[file];
      const text =
        typeof content === 'string'
          ? content
          : `${JSON.stringify(typeof base === 'object' ? { ...base, ...content } : content, null, 2)}\n`;
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
    const bin = path.join(repoRoot, 'node_modules', '.bin');
    const { status, stdout, stderr } = spawnSync(scripts.knip ?? '', {
      cwd: dir,
      shell: true,
      encoding: 'utf8',
      env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}`, NO_COLOR: '1' },
    });
    return { status, output: `${stdout}${stderr}` };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The lines of knip's report that name `what`. */
const lines = (/** @type {string} */ output, /** @type {string} */ what) =>
  output.split('\n').filter((line) => line.includes(what));

describe('npm run knip', () => {
  it('passes the miniature as it is', () => {
    const { status, output } = knip({});
    expect(output).not.toMatch(/Unused|Unlisted|Unresolved/);
    expect(status).toBe(0);
  });

  describe('in every file, reports', () => {
    /** One run for the planted files of this group: each test below finds its own in the report. */
    let report = { status: /** @type {number | null} */ (0), output: '' };
    beforeAll(() => {
      report = knip({
        // A path resolved from a package its package.json does not declare.
        'shared/server/gate.js': "module.exports = { browser: require.resolve('playwright-core') };\n",
        'shared/server/package.json': { exports: { './startSite': './startSite.js', './gate': './gate.js' } },
        // A test's import of a package neither its package nor the root declares.
        'shell/src/page.test.ts': "import { render } from '@testing-library/react';\n\ntest('r', () => render);\n",
        // A file nothing imports, an export nothing imports, a dependency nothing uses.
        'shell/src/orphan.ts': 'export const orphan = 1;\n',
        'shell/src/index.ts':
          "import { createElement } from 'react';\nimport { label } from './label';\n\ncreateElement(label);\n",
        'shell/src/label.ts': "export const label = 'main';\nexport const unusedLabel = 'aside';\n",
        'shell/package.json': { dependencies: { react: '^19.3.1', 'react-router-dom': '^7.18.5' } },
      });
    });

    it('fails', () => expect(report.status).not.toBe(0));

    it('a package resolved with require.resolve() that its package.json does not declare', () => {
      expect(lines(report.output, 'playwright-core')).toEqual([expect.stringContaining('shared/server/gate.js')]);
    });

    it("an import of a package that neither the file's package nor the root declares", () => {
      expect(lines(report.output, '@testing-library/react')).toEqual([
        expect.stringContaining('shell/src/page.test.ts'),
      ]);
    });

    it('a file nothing imports', () => expect(lines(report.output, 'shell/src/orphan.ts')).toHaveLength(1));

    it('an export nothing imports', () => {
      expect(lines(report.output, 'unusedLabel')).toEqual([expect.stringContaining('shell/src/label.ts')]);
    });

    it('a dependency nothing uses', () => {
      expect(lines(report.output, 'react-router-dom')).toEqual([expect.stringContaining('shell/package.json')]);
    });
  });

  describe('in production code (entries marked ! and what they import), reports', () => {
    let report = { status: /** @type {number | null} */ (0), output: '' };
    beforeAll(() => {
      report = knip({
        // The shell's webpack entry may not lean on its own devDependencies, on the root's, or on a package of ours
        // it does not declare.
        'shell/package.json': { devDependencies: { 'playwright-core': '^1.65.1' } },
        'shell/src/index.ts': [
          "import { createElement } from 'react';",
          "import fc from 'fast-check';",
          "import { chromium } from 'playwright-core';",
          "import { pages } from '@nativegtm/contract/pages';",
          '',
          "createElement('main', null, String(fc), String(chromium), String(pages));",
          '',
        ].join('\n'),
      });
    });

    it('fails, though every package is declared somewhere', () => expect(report.status).not.toBe(0));

    it("a root devDependency (the tools of every package's tests)", () => {
      expect(lines(report.output, 'fast-check')).toEqual([expect.stringContaining('shell/src/index.ts')]);
    });

    it("a devDependency of the file's own package", () => {
      expect(lines(report.output, 'playwright-core')).toEqual([expect.stringContaining('shell/src/index.ts')]);
    });

    it('one of our packages, which npm links for every workspace, that its package.json does not declare', () => {
      expect(lines(report.output, '@nativegtm/contract')).toEqual([expect.stringContaining('shell/src/index.ts')]);
    });
  });
});
