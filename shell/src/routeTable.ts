import { pages, type RemoteName } from '@nativegtm/contract/pages';
import { pageForPath } from '@nativegtm/contract/routes';

/**
 * Which remote owns which route, from the registry of pages (@nativegtm/contract). Moving a remote is a change of
 * /remotes.json, never of this table.
 */
export const pageRoutes: readonly { path: string; remote: RemoteName }[] = pages.map((page) => ({
  path: page.route,
  remote: page.remote,
}));

/** The remote whose page the router will show at `pathname`, by the route rule the servers use too. */
export function remoteForPath(pathname: string): RemoteName | undefined {
  return pageForPath(pathname)?.remote;
}
