import { BUCKET_COOKIE, BUCKET_STORAGE_KEY, CANARIES_META, sideOf } from '@nativegtm/contract/canaryBuckets';
import { placeInCanaries } from './canaryBucket';

/** Runs the idle callback at once: the tests are about what it writes, not when. */
beforeEach(() => {
  (globalThis as { requestIdleCallback?: unknown }).requestIdleCallback = (callback: () => void) => callback();
});
afterEach(() => {
  delete (globalThis as { requestIdleCallback?: unknown }).requestIdleCallback;
  document.cookie = `${BUCKET_COOKIE}=; Max-Age=0; Path=/`;
  localStorage.clear();
  document.head.innerHTML = '';
});

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const buckets = [...Array(100).keys()];
/** The first bucket on that side of the jobs canary at 25 %. */
const bucketOn = (side: 'canary' | 'control' | 'outside') => buckets.find((b) => sideOf(b, 'jobs', 25) === side)!;

function listCanaries(content: string) {
  document.head.innerHTML = `<meta name="${CANARIES_META}" content="${content}">`;
}

async function place(settled = Promise.resolve()) {
  placeInCanaries(settled);
  await settle();
}

describe('placeInCanaries', () => {
  it('draws a bucket once and keeps it, whether or not a canary runs', async () => {
    await place();
    const drawn = localStorage.getItem(BUCKET_STORAGE_KEY);
    expect(drawn).toMatch(/^(0|[1-9]\d?)$/);
    await place();
    expect(localStorage.getItem(BUCKET_STORAGE_KEY)).toBe(drawn);
    expect(document.cookie).not.toContain(BUCKET_COOKIE);
  });

  it.each(['canary', 'control'] as const)('sends the bucket while it is on the %s side', async (side) => {
    localStorage.setItem(BUCKET_STORAGE_KEY, String(bucketOn(side)));
    listCanaries('jobs=25');
    await place();
    expect(document.cookie).toContain(`${BUCKET_COOKIE}=${bucketOn(side)}`);
  });

  it('sends nothing outside, and stops sending once on no side', async () => {
    localStorage.setItem(BUCKET_STORAGE_KEY, String(bucketOn('outside')));
    listCanaries('jobs=25');
    await place();
    expect(document.cookie).not.toContain(BUCKET_COOKIE);

    localStorage.setItem(BUCKET_STORAGE_KEY, String(bucketOn('canary')));
    await place();
    expect(document.cookie).toContain(BUCKET_COOKIE);
    listCanaries('');
    await place();
    expect(document.cookie).not.toContain(BUCKET_COOKIE);
  });

  it('replaces a kept value that is no bucket', async () => {
    localStorage.setItem(BUCKET_STORAGE_KEY, '420');
    await place();
    expect(localStorage.getItem(BUCKET_STORAGE_KEY)).toMatch(/^\d{1,2}$/);
  });

  it('is never in a canary without storage', async () => {
    listCanaries('jobs=100');
    placeInCanaries(Promise.resolve(), document, () => {
      throw new DOMException('denied', 'SecurityError');
    });
    await settle();
    expect(document.cookie).not.toContain(BUCKET_COOKIE);
  });

  it('waits for the first route to settle', async () => {
    listCanaries('jobs=100');
    let settleRoute = () => {};
    placeInCanaries(new Promise<void>((resolve) => (settleRoute = resolve)));
    await settle();
    expect(localStorage.getItem(BUCKET_STORAGE_KEY)).toBeNull();
    settleRoute();
    await settle();
    expect(document.cookie).toContain(BUCKET_COOKIE);
  });
});
