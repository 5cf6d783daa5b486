import { pageLoader } from './remotes/federation';
import { prefetchLikelyPages } from './remotes/prefetchPages';
import { renderShell } from './renderShell';

// A task of its own: evaluating React and the router (this module's imports) and starting the shell are each a
// long piece of main-thread work on a phone; back to back they would be one task that blocks input for both.
setTimeout(() => {
  const firstRouteSettled = renderShell(pageLoader);
  prefetchLikelyPages(pageLoader, firstRouteSettled);
}, 0);
