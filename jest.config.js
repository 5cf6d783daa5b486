// `npm test` runs every package's unit and component tests, then the browser integration tests in tests/. The page
// remotes come from the registry of pages (shared/pages.js).
const { pages } = require('./shared/pages');

module.exports = {
  projects: [
    '<rootDir>/shared',
    '<rootDir>/shell',
    ...pages.map((page) => `<rootDir>/${page.package}`),
    '<rootDir>/tests',
  ],
};
