/** @jest-environment node */
const { failedTests } = require('./failedTests');

// What turbo printed for a store test that failed: each line with its task's prefix, jest's colours kept.
const LOG = [
  '@nativegtm/store:test: FAIL store ./storeLock.test.js (21.3 s)',
  '@nativegtm/store:test:   a command stopped with the lock',
  '@nativegtm/store:test:     \u001b[31m✕\u001b[39m refuses, once it runs again (20003 ms)',
  '@nativegtm/store:test:     ✓ writes nothing while the other command holds the lock (812 ms)',
  '@nativegtm/store:test:   ● a command stopped with the lock › refuses, once it runs again',
  '@nativegtm/store:test:     thrown: "Exceeded timeout of 20000 ms for a test."',
  '@nativegtm/store:test:   ● Console',
  '@nativegtm/store:test: Summary of all failing tests',
  '@nativegtm/store:test:   ● a command stopped with the lock › refuses, once it runs again',
  '@nativegtm/store:test: npm error command sh -c jest',
  ' ERROR  run failed: command  exited (1)',
].join('\n');

it('names each failed test and failure heading once, with its task, without colours', () => {
  expect(failedTests(LOG)).toEqual([
    '@nativegtm/store:test: ✕ refuses, once it runs again (20003 ms)',
    '@nativegtm/store:test: ● a command stopped with the lock › refuses, once it runs again',
  ]);
});

it('names nothing for a log without a failed test (a type error, a build that failed)', () => {
  expect(failedTests('@nativegtm/store:typecheck: error TS2322: nope\n ERROR  run failed')).toEqual([]);
});

it('stops at twenty lines, and says how many more there were', () => {
  const log = Array.from({ length: 25 }, (_, at) => `jobs-mfe:test:   ✕ test ${at}`).join('\n');
  expect(failedTests(log)).toEqual([
    ...Array.from({ length: 20 }, (_, at) => `jobs-mfe:test: ✕ test ${at}`),
    '… and 5 more',
  ]);
});
