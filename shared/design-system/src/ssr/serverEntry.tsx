// The entry of a package's server-render bundle (shared/build/ssr.js builds it for every remote, and for the shell's
// own 404 screen). `nativegtm-ssr-page` is an alias for the package's exposed page module.
import * as page from 'nativegtm-ssr-page';
import { documentTitle } from '../config/site';
import { pageIdentifierPrefix } from './identifiers';
import { renderPageHtml } from './renderPage';

export const meta = page.meta;
export const buildId = page.buildId;
/** The document title, exactly as the page sets it in the browser. */
export const title = documentTitle(page.meta.title);

export function render({
  name,
  pathname,
  search,
  renderedAt,
}: {
  name: string;
  pathname: string;
  search: string;
  renderedAt: number;
}) {
  return renderPageHtml(page.default, { pathname, search, renderedAt, identifierPrefix: pageIdentifierPrefix(name) });
}
