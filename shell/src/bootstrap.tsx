import { pageLoader } from './remotes/federation';
import { prefetchLikelyPages } from './remotes/prefetchPages';
import { renderShell } from './renderShell';

renderShell(pageLoader);
prefetchLikelyPages(pageLoader);
