import { createContext, useContext, useEffect } from 'react';
import { useLocation } from 'react-router-dom';

/**
 * Every screen tells the shell's layout when it has rendered the current path (a remote's page from its own React
 * root, the shell's screens from here). Focus and the route announcement follow that report rather than the route
 * change: a page in its own root renders after the shell's commit, and its h1 and title only exist from then on.
 */
export const ScreenRenderedContext = createContext<(pathname: string, key: string | undefined) => void>(
  () => undefined,
);

/** For the shell's own screens (404, error): reports after their first render at each location. */
export function useReportScreenRendered(): void {
  const report = useContext(ScreenRenderedContext);
  const { pathname, key } = useLocation();
  useEffect(() => report(pathname, key), [pathname, key, report]);
}
