import { REFUSED_INTEGRITY } from '@nativegtm/contract/integrity';
import { integrityFor, listBase, refusedList } from './integrityLists';
import { sha384 } from './sha384';

/**
 * The files loaded with an integrity that failed to load, by URL, with that integrity: refused for their bytes, or not
 * there at all. A browser says neither which nor why (the error event is the same for both), so refusedFiles asks
 * again. Every such file: the ones the shell adds for a remote and the chunks a remote's own runtime adds.
 */
const failed = new Map<string, string>();

/** Notes a file that failed to load with this integrity (a fetch's: the manifest). */
export function noteFailedLoad(url: string, integrity: string): void {
  failed.set(new URL(url, document.baseURI).href, integrity);
}

let watching = false;

/**
 * Notes every script and stylesheet (or preload) with an integrity that fails to load. A resource's error event does
 * not bubble, but it passes the window on its way down: one listener there sees them all, whoever added the element.
 */
export function watchFailedLoads(target: Window = window): void {
  if (watching) return;
  watching = true;
  target.addEventListener(
    'error',
    (event) => {
      const element = event.target;
      if (!(element instanceof HTMLScriptElement || element instanceof HTMLLinkElement)) return;
      const integrity = element.getAttribute('integrity');
      const url = element instanceof HTMLScriptElement ? element.src : element.href;
      if (integrity && url) noteFailedLoad(url, integrity);
    },
    true,
  );
}

/** The URLs an error and its causes name: webpack's and mini-css-extract's chunk errors carry theirs as `request`. */
function requestsOf(error: unknown): string[] {
  const urls: string[] = [];
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; depth += 1) {
    const request = (cause as { request?: unknown }).request;
    if (typeof request === 'string') urls.push(new URL(request, document.baseURI).href);
    cause = cause.cause;
  }
  return urls;
}

/**
 * Which of a remote's files that failed to load were refused for their bytes, once its load failed (`error`): each
 * fetched again, uncached, and its digest compared with the integrity it was loaded with. A file that does not answer
 * is a remote that is down, not a refusal; so is one whose bytes match. A file loaded with REFUSED_INTEGRITY (its list
 * does not name it) that answers was refused too. Where the page has no Web Crypto (a page not served over HTTPS or
 * from localhost), only those can be told apart.
 */
export async function refusedFiles(remote: string, error: unknown): Promise<string[]> {
  const base = listBase(remote);
  const candidates = new Map<string, string>();
  for (const [url, integrity] of failed) {
    if (base === undefined || !url.startsWith(base)) continue;
    candidates.set(url, integrity);
    failed.delete(url);
  }
  for (const url of requestsOf(error)) {
    const integrity = candidates.get(url) ?? integrityFor(remote, url);
    if (integrity !== undefined) candidates.set(url, integrity);
  }
  const refused = await Promise.all(
    [...candidates].map(async ([url, integrity]) => {
      try {
        const response = await fetch(url, { cache: 'no-store', mode: 'cors', credentials: 'omit' });
        if (!response.ok) return undefined;
        const bytes = await response.arrayBuffer();
        if (integrity === REFUSED_INTEGRITY) return url;
        const digest = await sha384(bytes);
        return digest === undefined || digest === integrity ? undefined : url;
      } catch {
        return undefined;
      }
    }),
  );
  // Its list, if the page itself found the list is not the one the site vouches for (integrityLists.ts).
  return [refusedList(remote), ...refused].filter((url): url is string => url !== undefined);
}

/** For tests: forget the failed loads. */
export function resetFailedLoads(): void {
  failed.clear();
}
