import type { RemoteName } from '@nativegtm/contract/pages';
import { remoteForPath } from '../routeTable';
import { whenIdleAfter } from '../tasks';
import { watching } from './pageLeft';
import type { PageLoader } from './pageLoader';

/** Marks when the idle prefetch starts: what loads after it is not part of the first page (read by npm run bench). */
export const IDLE_PREFETCH_MARK = 'nativegtm:idle-prefetch';

/** The remote behind a link of this site, or nothing for other sites, downloads and non-page paths. */
function remoteOfLink(target: EventTarget | null, location: Location): RemoteName | undefined {
  const link = target instanceof Element ? target.closest('a[href]') : null;
  if (!(link instanceof HTMLAnchorElement) || link.hasAttribute('download')) return undefined;
  const url = new URL(link.href, location.href);
  if (url.origin !== location.origin) return undefined;
  return remoteForPath(url.pathname);
}

/** The visitor asked for less data (Save-Data) or is on a very slow connection: fetch only what they open. */
function savingData(): boolean {
  const connection = (navigator as Navigator & { connection?: { saveData?: boolean; effectiveType?: string } })
    .connection;
  return Boolean(connection?.saveData) || /(^|-)2g$/.test(connection?.effectiveType ?? '');
}

/**
 * Loads the pages a visitor is likely to open next, so a click on a link paints the new page at once:
 * - the page behind a link of this site as soon as the pointer is over it or it gets keyboard focus;
 * - once the document has loaded, the first route has settled (`firstRouteSettled`) and the browser is idle, the
 *   pages the first page links to (not with Save-Data).
 * Loading a page in advance runs its module code but renders nothing; a failure is reported only when it is opened.
 */
export function prefetchLikelyPages(loader: Pick<PageLoader, 'preload'>, firstRouteSettled: Promise<unknown>): void {
  const onIntent = (event: Event) => {
    const remote = remoteOfLink(event.target, window.location);
    if (remote) loader.preload(remote);
  };
  document.addEventListener('pointerover', onIntent, { passive: true });
  document.addEventListener('focusin', onIntent);

  // The first route too: the first page's manifest is read with fetch(), which does not delay `load`, so on a slow
  // start `load` can come while only the loading screen (no links) is on screen. Watched for a navigation until the
  // loads have started: a reload just before would cut them short, and must not read as their remotes failing.
  const stopWatching = savingData() ? () => {} : watching();
  whenIdleAfter([firstRouteSettled], () => {
    try {
      if (savingData()) return;
      performance.mark?.(IDLE_PREFETCH_MARK);
      const current = remoteForPath(window.location.pathname);
      const linked = new Set<RemoteName>();
      for (const link of document.querySelectorAll('a[href]')) {
        const remote = remoteOfLink(link, window.location);
        if (remote && remote !== current) linked.add(remote);
      }
      linked.forEach((remote) => loader.preload(remote));
    } finally {
      stopWatching();
    }
  });
}
