import { parse as parseCookies } from 'cookie';
import { remoteNames } from '@nativegtm/contract/remotes';
import { OVERRIDE_NOTICE_COOKIE, parseOverride } from '@nativegtm/contract/overrides';

/**
 * The remote this browser overrides with a dev server, and its origin (`npm run dev -- <remote> --against <site>`),
 * from the notice cookie the server sets beside its own (HttpOnly) one. Only a document load (`/_override/…`) starts
 * or ends an override, so the document's cookies say it for the page's life.
 */
export function overridden(cookies: string = document.cookie): { remote: string; origin: string } | undefined {
  return parseOverride(parseCookies(cookies)[OVERRIDE_NOTICE_COOKIE], remoteNames);
}
