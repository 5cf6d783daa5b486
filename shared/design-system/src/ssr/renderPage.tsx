import { renderToString } from 'react-dom/server';
import type { Navigator } from 'react-router-dom';
import type { PageComponent } from '../contracts';
import { PageRouter } from './PageRouter';

/** Rendering at build time: nothing can navigate, links only need their href. */
const staticNavigator: Navigator = {
  createHref: (to) => (typeof to === 'string' ? to : `${to.pathname ?? ''}${to.search ?? ''}${to.hash ?? ''}`),
  go: () => undefined,
  push: () => undefined,
  replace: () => undefined,
};

export interface RenderPageOptions {
  pathname: string;
  search: string;
  renderedAt: number;
  /** Keeps useId values of this page's root apart from other roots in the document; the browser passes the same. */
  identifierPrefix: string;
}

/** The page's HTML as the browser will hydrate it (see PageRouter). */
export function renderPageHtml(
  Page: PageComponent,
  { pathname, search, renderedAt, identifierPrefix }: RenderPageOptions,
) {
  return renderToString(
    <PageRouter location={{ pathname, search, hash: '' }} navigator={staticNavigator} isStatic renderedAt={renderedAt}>
      <Page />
    </PageRouter>,
    { identifierPrefix },
  );
}
