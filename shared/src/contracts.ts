import type { ComponentType } from 'react';
import { pages } from '../pages';
import type { PageQuery } from '../server/pageVariant';

// Also importable alone, as '@nativegtm/shared/contracts': plain data without React or styles, which the shell reads
// before the shared singletons are negotiated (to start loading the page's remote at once). That copy is not the
// singleton, which is harmless for constants.
export { paths } from './config/site';
export type { SitePath } from './config/site';

/**
 * The contract between the shell and the page remotes. A remote exposes './Page' whose default export is a
 * page component; the shell loads it by remote name. Both sides import these types, so a remote whose export
 * stops fitting fails the typecheck instead of a visitor's page.
 */
export type RemoteName = (typeof pages)[number]['remote'];

/** The registry of pages (shared/pages.js): every page remote, its route and port. */
export { pages };

/** Every page remote's name, from the registry of pages. */
export const remoteNames: readonly RemoteName[] = pages.map((page) => page.remote);

/** Pages take no props today: everything they need comes from the URL and from this package. */
export type PageProps = Record<string, never>;

export type PageComponent = ComponentType<PageProps>;

/**
 * What a page says about itself, for the document around it. The page's team owns these words: the shell's server puts
 * them in the document's head (title, description, link previews), and a deploy of the remote alone changes them.
 */
export interface PageMeta {
  /** The screen's name; the document title is "<title> · NativeGTM" (see documentTitle). */
  title: string;
  /** One or two sentences for search results and link previews. */
  description: string;
  /**
   * The query parameters that change what the page shows, each with every value it understands (slugs). The build
   * renders one HTML variant per combination; any other value is rendered as the default, as the page itself does.
   * A page that reads a query parameter not listed here would hydrate HTML rendered without it.
   */
  query?: PageQuery;
}

export interface PageModule {
  default: PageComponent;
  meta: PageMeta;
  /** Which build this code is (see @nativegtm/shared/build-id): server HTML is only hydrated by the same build. */
  buildId: string;
}

/** The module id the shell asks Module Federation for: `<remote>/Page`. */
export const exposedPage = './Page';

export function isRemoteName(value: string): value is RemoteName {
  return (remoteNames as readonly string[]).includes(value);
}
