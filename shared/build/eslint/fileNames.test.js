/** @jest-environment node */
// The naming convention against planted names, and against every file the repository tracks (CSS and HTML included,
// which ESLint does not read).
const { execFileSync } = require('node:child_process');
const path = require('node:path');
const { nameProblem } = require('./fileNames');

const repoRoot = path.resolve(__dirname, '../../..');
const packages = new Set(['shell', 'jobs-mfe', 'shared/server', 'shared/design-system', 'tests']);
/** @param {string} folder */
const isPackageFolder = (folder) => packages.has(folder);

describe('the file-naming convention', () => {
  it.each([
    'shared/server/documentComposer.js',
    'shared/server/commands/servePackage.js',
    'shared/design-system/src/ui/SiteHeader/SiteHeader.tsx',
    'shared/design-system/src/ui/SiteHeader/SiteHeader.module.css',
    'shared/design-system/src/ui/SiteHeader/SiteHeader.test.tsx',
    'jobs-mfe/src/jobs/urlQuery.test.ts',
    'jobs-mfe/webpack.config.js',
    'jobs-mfe/package.json',
    'shell/public/og-image.png',
    'shell/tsconfig.json',
    'tsconfig.node.json',
    'docs/server-composition.md',
    'shared/store/postgres/migrations/1764300000000_release-store.js',
    '.ci/run',
  ])('accepts %s', (file) => {
    expect(nameProblem(file, isPackageFolder)).toBeNull();
  });

  it.each([
    ['shared/server/static-server.js', /camelCase/],
    ['shared/server/run_site.js', /camelCase/],
    ['shared/build/new-page/newPage.js', /folder "new-page"/],
    ['shell/src/routing/History.ts', /PascalCase is for React components/],
    ['tests/specs/featured-jobs.test.ts', /camelCase/],
    ['shell/src/screens/not-found.module.css', /camelCase/],
  ])('refuses %s', (file, problem) => {
    expect(nameProblem(file, isPackageFolder)).toMatch(problem);
  });

  it('holds for every file in the repository', () => {
    const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: repoRoot, encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);
    const problems = files.flatMap((file) => {
      const problem = nameProblem(file);
      return problem ? [`${file}: ${problem}`] : [];
    });
    expect(problems).toEqual([]);
  });
});
