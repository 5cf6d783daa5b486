// The jest project settings every package uses for its unit and component tests (jsdom, TypeScript, CSS Modules).
const path = require('node:path');

/** Generated tests draw the same cases every run (fuzzSeed.js). */
const FUZZ_SEED = path.join(__dirname, 'fuzzSeed.js');

/**
 * TypeScript for jest, types only stripped (`npm run typecheck` checks them). By path, resolved from this package:
 * jest looks a transform's bare name up from the project's rootDir, a package that does not declare ts-jest.
 * @type {[string, { tsconfig: string, diagnostics: boolean }]}
 */
const TS_TRANSFORM = [
  require.resolve('ts-jest'),
  { tsconfig: path.join(__dirname, 'tsconfig.jest.json'), diagnostics: false },
];

/**
 * A package of browser code (the design system, the shell, the page remotes): its tests in src/, in jsdom.
 * @param {{ packageDir: string, displayName: string }} options
 */
function createJestProject({ packageDir, displayName }) {
  return {
    displayName,
    rootDir: packageDir,
    testEnvironment: path.join(__dirname, 'jestEnvironment.js'),
    roots: ['<rootDir>/src'],
    testMatch: ['**/*.test.ts', '**/*.test.tsx'],
    setupFiles: [FUZZ_SEED],
    setupFilesAfterEnv: [path.join(__dirname, 'jestSetup.ts')],
    transform: {
      '^.+\\.tsx?$': TS_TRANSFORM,
    },
    moduleNameMapper: {
      // CSS Modules resolve to their class names, so tests can still assert on className where it matters.
      '\\.module\\.css$': require.resolve('identity-obj-proxy'),
      '\\.css$': path.join(__dirname, 'styleStub.js'),
    },
  };
}

/**
 * A package of plain JavaScript that runs in Node (the contract, the build, the servers): its tests sit beside its
 * files, in Node's environment.
 * @param {{ packageDir: string, displayName: string }} options
 */
function createNodeJestProject({ packageDir, displayName }) {
  return {
    displayName,
    rootDir: packageDir,
    testEnvironment: 'node',
    roots: ['<rootDir>'],
    testMatch: ['**/*.test.js'],
    testPathIgnorePatterns: ['/node_modules/'],
    setupFiles: [FUZZ_SEED],
  };
}

module.exports = { createJestProject, createNodeJestProject, FUZZ_SEED, TS_TRANSFORM };
