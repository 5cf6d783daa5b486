import type { RouteObject } from 'react-router-dom';
import { RemoteLoadError, type PageLoader } from './remotes/pageLoader';
import { ErrorScreen } from './screens/ErrorScreen';
import { LoadingScreen } from './screens/LoadingScreen';
import { NotFound } from './screens/NotFound';
import { RemotePage } from './screens/RemotePage';
import { ShellLayout } from './screens/ShellLayout';
import { pageRoutes } from './routeTable';

export function createRoutes(loader: PageLoader): RouteObject[] {
  return [
    {
      element: <ShellLayout />,
      errorElement: <ErrorScreen />,
      hydrateFallbackElement: <LoadingScreen />,
      children: [
        ...pageRoutes.map(({ path, remote }): RouteObject => ({
          path,
          // The loader fetches the remote before the route renders: on client-side navigation the current page
          // stays on screen (with a progress indicator) instead of flashing an empty one.
          loader: async () => ({ module: await loader.load(remote) }),
          element: <RemotePage />,
          errorElement: <ErrorScreen />,
          handle: { remote },
        })),
        { path: '*', element: <NotFound /> },
      ],
    },
  ];
}

/**
 * Loader failures are logged by the page loader (once, with the remote's name); this logs what is left: a page that
 * threw while rendering, named by the remote that owns its route.
 */
export function logRouteError(error: unknown, pattern: string | undefined): void {
  if (error instanceof RemoteLoadError) return;
  const owner = pageRoutes.find((route) => route.path === pattern)?.remote;
  console.error(owner ? `[shell] Remote "${owner}": its page failed while rendering` : '[shell] Route error', error);
}
