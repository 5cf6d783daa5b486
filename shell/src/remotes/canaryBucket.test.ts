import { BUCKET_COOKIE } from '@nativegtm/contract/canaryBuckets';
import { keepCanaryBucket } from './canaryBucket';

/** Runs the idle callback at once: the test is about what it writes, not when. */
beforeEach(() => {
  (globalThis as { requestIdleCallback?: unknown }).requestIdleCallback = (callback: () => void) => callback();
});
afterEach(() => {
  delete (globalThis as { requestIdleCallback?: unknown }).requestIdleCallback;
  document.cookie = `${BUCKET_COOKIE}=; Max-Age=0; Path=/`;
});

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('keepCanaryBucket', () => {
  it('gives a browser without a bucket one, 0 to 99, for the whole site', async () => {
    keepCanaryBucket(Promise.resolve());
    await settle();
    expect(document.cookie).toMatch(new RegExp(`(^|; )${BUCKET_COOKIE}=(0|[1-9]\\d?)($|;)`));
  });

  it('keeps the bucket a browser has', async () => {
    document.cookie = `${BUCKET_COOKIE}=42; Path=/`;
    keepCanaryBucket(Promise.resolve());
    await settle();
    expect(document.cookie).toContain(`${BUCKET_COOKIE}=42`);
  });

  it('replaces a value that is no bucket', async () => {
    document.cookie = `${BUCKET_COOKIE}=420; Path=/`;
    keepCanaryBucket(Promise.resolve());
    await settle();
    expect(document.cookie).not.toContain(`${BUCKET_COOKIE}=420`);
    expect(document.cookie).toMatch(new RegExp(`${BUCKET_COOKIE}=\\d{1,2}($|;)`));
  });

  it('waits for the first route to settle', async () => {
    let settleRoute = () => {};
    keepCanaryBucket(new Promise<void>((resolve) => (settleRoute = resolve)));
    await settle();
    expect(document.cookie).not.toContain(BUCKET_COOKIE);
    settleRoute();
    await settle();
    expect(document.cookie).toContain(BUCKET_COOKIE);
  });
});
