import {
  BUCKET_COOKIE,
  BUCKET_STORAGE_KEY,
  CANARIES_META,
  bucketCookie,
  newBucket,
  onAnySide,
  parseBucket,
  parseCanaries,
} from '@nativegtm/contract/canaryBuckets';
import { whenIdleAfter } from '../tasks';

/** The bucket this browser keeps, drawn on its first page; none where storage is off (never in a canary then). */
function keptBucket(storage: () => Storage): number | undefined {
  try {
    const kept = parseBucket(storage().getItem(BUCKET_STORAGE_KEY) ?? undefined);
    if (kept !== undefined) return kept;
    const drawn = newBucket();
    storage().setItem(BUCKET_STORAGE_KEY, String(drawn));
    return drawn;
  } catch {
    return undefined;
  }
}

/** Whether the page's cookies include the bucket cookie. */
const sendsBucket = (cookies: string) => cookies.split('; ').some((part) => part.startsWith(`${BUCKET_COOKIE}=`));

/**
 * Places this browser in the running canaries (@nativegtm/contract/canaryBuckets) once the first page has settled and
 * the browser is idle: its bucket goes out in a cookie while it is on a side of one the document lists, and the cookie
 * is cleared when it is on none. Not sooner: this document and its remotes.json were served for the cookies it came
 * with, and remotes.json fetched again (after a failed fetch) must name the same files. From the next document on,
 * the servers serve the visitor their side.
 */
export function placeInCanaries(
  firstRouteSettled: Promise<unknown>,
  page: Document = document,
  storage: () => Storage = () => localStorage,
): void {
  whenIdleAfter([firstRouteSettled], () => {
    const bucket = keptBucket(storage);
    const listed = page.querySelector(`meta[name="${CANARIES_META}"]`)?.getAttribute('content') ?? '';
    const secure = page.location.protocol === 'https:';
    if (bucket !== undefined && onAnySide(bucket, parseCanaries(listed))) {
      page.cookie = bucketCookie(bucket, { secure });
    } else if (sendsBucket(page.cookie)) {
      page.cookie = bucketCookie(undefined, { secure });
    }
  });
}
