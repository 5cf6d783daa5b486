import { pages, type RemoteName } from '@nativegtm/shared/contracts';

/**
 * Which remote owns which route, from the registry of pages (shared/pages.js). Moving a remote is a change of
 * /remotes.json, never of this table.
 */
export const pageRoutes: readonly { path: string; remote: RemoteName }[] = pages.map((page) => ({
  path: page.route,
  remote: page.remote,
}));

/** The remote whose page the router will show at `pathname` (matched like the router: any case, trailing slash). */
export function remoteForPath(pathname: string): RemoteName | undefined {
  const normalized = pathname.length > 1 ? pathname.replace(/\/+$/, '').toLowerCase() : pathname;
  return pageRoutes.find((route) => route.path === normalized)?.remote;
}
