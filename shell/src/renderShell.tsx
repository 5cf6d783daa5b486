import { StrictMode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import type { PageLoader } from './remotes/pageLoader';
import { createRoutes, logRouteError } from './router';
import { findServerPage, ServerPageContext, serverPageHandoff } from './screens/serverPage';

/**
 * Mounts the shell (router, 404, error and loading screens) with a page loader. The composed site passes the Module
 * Federation loader; the monolith benchmark build passes one with the four pages imported statically.
 * Resolves once the first route has settled (its page, the 404 or the error screen is what renders next).
 *
 * When the document arrived with HTML (a page rendered by its remote, or the 404 screen, after #root), that HTML stays
 * on screen, untouched, until the first route has settled; then the shell renders in one synchronous pass in which
 * the page's slot takes the server's nodes over where they are (see PageSlot), or, for the 404 and error screens,
 * they are removed in the same pass. No frame ever shows an empty or half-built screen, and no painted node moves.
 */
export function renderShell(pageLoader: PageLoader): Promise<void> {
  const container = document.getElementById('root');
  if (!container) throw new Error('The shell needs a #root element in index.html');

  const serverPage = findServerPage();
  const handoff = serverPageHandoff(serverPage);
  const router = createBrowserRouter(createRoutes(pageLoader));
  const root = createRoot(container);
  const app = (
    <StrictMode>
      <ServerPageContext value={handoff}>
        <RouterProvider router={router} onError={(error, info) => logRouteError(error, info.pattern)} />
      </ServerPageContext>
    </StrictMode>
  );

  const settled = new Promise<void>((resolve) => {
    if (router.state.initialized) return resolve();
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });

  if (!serverPage) {
    root.render(app);
    return settled;
  }
  return settled.then(() => {
    flushSync(() => root.render(app));
    handoff.discardUntaken();
  });
}
