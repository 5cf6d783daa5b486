import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import type { PageLoader } from './remotes/pageLoader';
import { createRoutes, logRouteError } from './router';

/**
 * Mounts the shell (router, 404, error and loading screens) with a page loader. The composed site passes the Module
 * Federation loader; the monolith benchmark build passes one with the four pages imported statically.
 * Resolves once the first route has settled (its page, the 404 or the error screen is what renders next).
 */
export function renderShell(pageLoader: PageLoader): Promise<void> {
  const container = document.getElementById('root');
  if (!container) throw new Error('The shell needs a #root element in index.html');

  const router = createBrowserRouter(createRoutes(pageLoader));

  createRoot(container).render(
    <StrictMode>
      <RouterProvider router={router} onError={(error, info) => logRouteError(error, info.pattern)} />
    </StrictMode>,
  );

  return new Promise((resolve) => {
    if (router.state.initialized) return resolve();
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });
}
