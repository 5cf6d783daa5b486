// The jest project settings every package uses for its unit and component tests (jsdom, TypeScript, CSS Modules).
const path = require('node:path');

function createJestProject({ packageDir, displayName }) {
  return {
    displayName,
    rootDir: packageDir,
    testEnvironment: path.join(__dirname, 'jest.environment.js'),
    roots: ['<rootDir>/src'],
    testMatch: ['**/*.test.ts', '**/*.test.tsx'],
    setupFilesAfterEnv: [path.join(__dirname, 'jest.setup.ts')],
    transform: {
      '^.+\\.tsx?$': ['ts-jest', { tsconfig: path.join(__dirname, 'tsconfig.jest.json'), diagnostics: false }],
    },
    moduleNameMapper: {
      // CSS Modules resolve to their class names, so tests can still assert on className where it matters.
      '\\.module\\.css$': 'identity-obj-proxy',
      '\\.css$': path.join(__dirname, 'jest.style-stub.js'),
    },
  };
}

module.exports = { createJestProject };
