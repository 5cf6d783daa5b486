import { paths, type RemoteName } from '@nativegtm/shared/contracts';

/** Which remote owns which route. Moving a remote is a change of /remotes.json, never of this table. */
export const pageRoutes: readonly { path: string; remote: RemoteName }[] = [
  { path: paths.candidates, remote: 'candidates' },
  { path: paths.employers, remote: 'employers' },
  { path: paths.featuredJobs, remote: 'jobs' },
  { path: paths.comingSoon, remote: 'comingSoon' },
];

/** The remote whose page the router will show at `pathname` (matched like the router: any case, trailing slash). */
export function remoteForPath(pathname: string): RemoteName | undefined {
  const normalized = pathname.length > 1 ? pathname.replace(/\/+$/, '').toLowerCase() : pathname;
  return pageRoutes.find((route) => route.path === normalized)?.remote;
}
