// `npm test` runs every package's unit and component tests, then the browser integration tests in tests/. The page
// remotes come from the registry of pages (@nativegtm/contract/pages).
const { pages } = require('@nativegtm/contract/pages');

module.exports = {
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
