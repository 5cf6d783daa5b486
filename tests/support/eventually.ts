// State that settles after the event a test waited on: an attribute React sets in the commit after a click, focus
// or an announcement moved by an effect, a style mid-transition. Reading such a value once, at once, can fail on a
// correct build; these re-read it until it is what the test expects, and fail with the last value after a bound.

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Re-reads a value until it passes the check, failing after `timeoutMs` with the last value read. */
export async function eventually<T>(
  read: () => Promise<T>,
  check: (value: T) => boolean,
  { timeoutMs = 2000, what = 'value' }: { timeoutMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!check(value)) {
    if (Date.now() > deadline) throw new Error(`${what} still ${JSON.stringify(value)} after ${timeoutMs} ms`);
    await pause(50);
    value = await read();
  }
  return value;
}

/** Re-reads a value until it equals `expected` (as JSON), failing after `timeoutMs` with both values. */
export async function expectEventually<T>(
  read: () => Promise<T>,
  expected: T,
  { timeoutMs = 5000 }: { timeoutMs?: number } = {},
): Promise<void> {
  const json = (value: unknown) => JSON.stringify(value);
  await eventually(read, (value) => json(value) === json(expected), {
    timeoutMs,
    what: `expected ${json(expected)}, but the value is`,
  });
}
