import { BUCKET_COOKIE, bucketCookie, newBucket, parseBucket } from '@nativegtm/contract/canaryBuckets';
import { whenIdleAfter } from '../tasks';

/** The bucket this browser keeps, if its cookie holds one. */
function keptBucket(cookies: string): number | undefined {
  const prefix = `${BUCKET_COOKIE}=`;
  const entry = cookies.split('; ').find((part) => part.startsWith(prefix));
  return parseBucket(entry?.slice(prefix.length));
}

/**
 * Gives this browser its canary bucket (@nativegtm/contract/canaryBuckets) if it has none, once the first page has
 * settled and the browser is idle. Not sooner: this document and its remotes.json were served without one (shared, on
 * live), and remotes.json fetched again with a bucket (after a failed fetch) could name a canary's files for a page of
 * live ones. From the next document on, the servers put the visitor on their side of each running canary.
 */
export function keepCanaryBucket(firstRouteSettled: Promise<unknown>, page: Document = document): void {
  whenIdleAfter([firstRouteSettled], () => {
    if (keptBucket(page.cookie) !== undefined) return;
    page.cookie = bucketCookie(newBucket(), { secure: page.location.protocol === 'https:' });
  });
}
