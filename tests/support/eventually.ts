// State that settles after the event a test waited on: an attribute React sets in the commit after a click, focus
// or an announcement moved by an effect, a style mid-transition. Reading such a value once, at once, can fail on a
// correct build; these re-read it until it is what the test expects, and fail with the last value after a bound.

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads until `check` passes or `timeoutMs` has gone by; says which, with the last value read. */
async function poll<T>(
  read: () => Promise<T>,
  check: (value: T) => boolean,
  timeoutMs: number,
): Promise<{ value: T; passed: boolean }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value)) return { value, passed: true };
    if (Date.now() > deadline) return { value, passed: false };
    await pause(50);
  }
}

/** Re-reads a value until it passes the check, failing after `timeoutMs` with the last value read. */
export async function eventually<T>(
  read: () => Promise<T>,
  check: (value: T) => boolean,
  { timeoutMs = 2000, what = 'value' }: { timeoutMs?: number; what?: string } = {},
): Promise<T> {
  const { value, passed } = await poll(read, check, timeoutMs);
  if (!passed) throw new Error(`${what} still ${JSON.stringify(value)} after ${timeoutMs} ms`);
  return value;
}

/**
 * Re-reads a value until it equals `expected` as jest's toEqual sees it (key order does not count), failing after
 * `timeoutMs` with jest's diff of the last value read.
 */
export async function expectEventually<T>(
  read: () => Promise<T>,
  expected: T,
  { timeoutMs = 5000 }: { timeoutMs?: number } = {},
): Promise<void> {
  const mismatch = (value: T): Error | undefined => {
    try {
      expect(value).toEqual(expected);
      return undefined;
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  };
  const { value, passed } = await poll(read, (candidate) => mismatch(candidate) === undefined, timeoutMs);
  if (!passed) throw new Error(`Still not the expected value after ${timeoutMs} ms:\n\n${mismatch(value)?.message}`);
}
