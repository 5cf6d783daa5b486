import { pageLoader } from './remotes/federation';
import { prefetchLikelyPages } from './remotes/prefetchPages';
import { renderShell } from './renderShell';

const firstRouteSettled = renderShell(pageLoader);
prefetchLikelyPages(pageLoader, firstRouteSettled);
