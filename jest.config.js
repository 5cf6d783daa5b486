// `npm test` runs every package's unit and component tests, then the browser integration tests in tests/. The page
// remotes come from the registry of pages (@nativegtm/contract/pages).
const { availableParallelism } = require('node:os');
const { pages } = require('@nativegtm/contract/pages');

module.exports = {
  // Two test files at a time even on two cores (jest's default there is one): an integration file spends most of its
  // time waiting on browsers, servers and a canary's steps, which another file's work fills. Every file has ports of
  // its own (tests/support/testSite.js) and Xvfb and PostgreSQL pick theirs.
  maxWorkers: Math.max(2, availableParallelism() - 1),
  projects: [
    '<rootDir>/shared/contract',
    '<rootDir>/shared/design-system',
    '<rootDir>/shared/build',
    '<rootDir>/shared/store',
    '<rootDir>/shared/server',
    '<rootDir>/shared/tools',
    '<rootDir>/shared/deploy',
    '<rootDir>/shell',
    ...pages.map((page) => `<rootDir>/${page.package}`),
    '<rootDir>/tests/jest.unit.config.js',
    '<rootDir>/tests',
  ],
};
