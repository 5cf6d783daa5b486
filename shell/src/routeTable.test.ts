import { pages } from '@nativegtm/contract/pages';
import { pageRoutes, remoteForPath } from './routeTable';

describe('the route table', () => {
  it('maps every route of the registry of pages to its remote', () => {
    expect(pageRoutes).toEqual(pages.map(({ route, remote }) => ({ path: route, remote })));
  });

  it('matches paths as the router does', () => {
    expect(remoteForPath('/Featured-Jobs/')).toBe('jobs');
    expect(remoteForPath('/featured-jobs/extra')).toBeUndefined();
  });
});
