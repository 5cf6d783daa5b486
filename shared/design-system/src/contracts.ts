import type { ComponentType } from 'react';
import type { PageQuery } from '@nativegtm/contract/pageVariant';

/**
 * The contract between the shell and the page remotes, in React's terms. A remote exposes './Page' whose default
 * export is a page component; the shell loads it by remote name. Both sides import these types, so a remote whose
 * export stops fitting fails the typecheck instead of a visitor's page. (The names and routes themselves are plain
 * data in @nativegtm/contract, which the servers read too.)
 */
export { remoteNames, exposedPage, isRemoteName } from '@nativegtm/contract/remotes';
export type { RemoteName } from '@nativegtm/contract/pages';

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
  /** Which build this code is (see @nativegtm/design-system/build-id): server HTML is only hydrated by the same build. */
  buildId: string;
}
