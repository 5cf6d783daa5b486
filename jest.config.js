// `npm test` runs every package's unit and component tests, then the browser integration tests in tests/.
module.exports = {
  projects: [
    '<rootDir>/shared',
    '<rootDir>/shell',
    '<rootDir>/candidates-mfe',
    '<rootDir>/employers-mfe',
    '<rootDir>/jobs-mfe',
    '<rootDir>/coming-soon-mfe',
    '<rootDir>/tests',
  ],
};
