import { eventually, expectEventually } from '../support/eventually';

// The waits of the browser specs: a read that settles late must pass, a read that never settles must fail within
// its bound and say what it saw.

/** A read whose value is the next of `values` on each call, then stays at the last. */
function reads<T>(...values: T[]): { read: () => Promise<T>; calls: () => number } {
  let calls = 0;
  return {
    read: async () => values[Math.min(calls++, values.length - 1)]!,
    calls: () => calls,
  };
}

describe('expectEventually', () => {
  it('resolves once the value read equals the expected one, whatever the order of its keys', async () => {
    const value = reads({ count: 1, done: false }, { count: 2, done: false }, { count: 3, done: true });
    await expectEventually(value.read, { done: true, count: 3 }, { timeoutMs: 1000 });
    expect(value.calls()).toBe(3);
  });

  it('fails within its bound with the expected value and the last one read', async () => {
    const started = Date.now();
    const failure = expectEventually(reads('false').read, 'true', { timeoutMs: 200 });
    await expect(failure).rejects.toThrow(/after 200 ms[\s\S]*"true"[\s\S]*"false"/);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('lets an error of the read through at once', async () => {
    const started = Date.now();
    const failure = expectEventually(() => Promise.reject(new Error('page closed')), 'true', { timeoutMs: 2000 });
    await expect(failure).rejects.toThrow('page closed');
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('eventually', () => {
  it('resolves with the first value that passes the check', async () => {
    await expect(eventually(reads(1, 2, 3, 4).read, (value) => value >= 3, { timeoutMs: 1000 })).resolves.toBe(3);
  });

  it('fails within its bound, naming what it waited for and the last value read', async () => {
    const failure = eventually(reads('none').read, (value) => value === 'some', { timeoutMs: 200, what: 'the label' });
    await expect(failure).rejects.toThrow('the label still "none" after 200 ms');
  });
});
