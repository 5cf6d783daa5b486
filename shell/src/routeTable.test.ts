import { deployables } from '@nativegtm/shared/server/site.js';
import { pageRoutes, remoteForPath } from './routeTable';

describe('the route table', () => {
  it('maps the same routes to the same remotes as the servers and the builds (shared/server/site.js)', () => {
    const fromSite = deployables
      .filter((deployable) => deployable.role === 'remote')
      .map(({ route, remote }) => ({ path: route ?? '', remote }));
    expect([...pageRoutes].sort((a, b) => a.path.localeCompare(b.path))).toEqual(
      fromSite.sort((a, b) => a.path.localeCompare(b.path)),
    );
  });

  it('matches paths as the router does', () => {
    expect(remoteForPath('/Featured-Jobs/')).toBe('jobs');
    expect(remoteForPath('/featured-jobs/extra')).toBeUndefined();
  });
});
