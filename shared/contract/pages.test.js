/** @jest-environment node */
// The registry of pages against the repository: what the generator (npm run new-page) writes must hold for every page.
const fs = require('node:fs');
const path = require('node:path');
const { pages } = require('./pages');
const { SHELL_PORT } = require('./ports');

const repoRoot = path.resolve(__dirname, '../..');
/** @param {string} file */
const readJson = (file) => JSON.parse(fs.readFileSync(path.join(repoRoot, file), 'utf8'));
/** @param {string} file @returns {string[]} */
const references = (file) =>
  readJson(file).references.map((/** @type {{ path: string }} */ reference) => path.basename(reference.path));

describe('the registry of pages', () => {
  it.each(/** @type {const} */ (['remote', 'package', 'route', 'pathKey', 'port']))(
    'gives every page its own %s',
    (field) => {
      const values = pages.map((page) => page[field]);
      expect(new Set(values).size).toBe(values.length);
    },
  );

  it('names remotes and path keys as JavaScript identifiers, routes as paths, ports after the shell', () => {
    for (const page of pages) {
      expect(page.remote).toMatch(/^[a-z][A-Za-z0-9]*$/);
      expect(page.pathKey).toMatch(/^[a-z][A-Za-z0-9]*$/);
      expect(page.route).toMatch(/^\/([a-z0-9-]+(\/[a-z0-9-]+)*)?$/);
      expect(page.port).toBeGreaterThan(SHELL_PORT);
      expect(page.heading.length).toBeGreaterThan(0);
    }
  });

  it.each(pages.map((page) => [page.package]))('has a workspace package %s, type-checked and tested', (name) => {
    expect(readJson(`${name}/package.json`).name).toBe(name);
    expect(fs.existsSync(path.join(repoRoot, name, 'src/Page.tsx'))).toBe(true);
    expect(references('tsconfig.json')).toContain(name);
    expect(references('tests/tsconfig.json')).toContain(name);
  });

  it('lists every page package in the workspace: no remote folder is left out', () => {
    const folders = fs.readdirSync(repoRoot).filter((entry) => entry.endsWith('-mfe'));
    expect(folders.sort()).toEqual(pages.map((page) => page.package).sort());
  });
});
