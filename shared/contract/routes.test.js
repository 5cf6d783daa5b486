/** @jest-environment node */
const { pages } = require('./pages');
const { normalizeRoutePath, pageForPath, routePattern } = require('./routes');

describe('the route rule', () => {
  it.each([
    ['/', '/'],
    ['//', '/'],
    ['/employers', '/employers'],
    ['/Employers/', '/employers'],
    ['/FEATURED-JOBS///', '/featured-jobs'],
    ['/employers/x', '/employers/x'],
  ])('reads %p as the route %p', (pathname, route) => {
    expect(normalizeRoutePath(pathname)).toBe(route);
  });

  it('finds the page of a path, and none for an unknown one', () => {
    expect(pageForPath('/Featured-Jobs/')?.remote).toBe('jobs');
    expect(pageForPath('/')?.remote).toBe('candidates');
    expect(pageForPath('/employers/team')).toBeUndefined();
    expect(pageForPath('/index.html')).toBeUndefined();
  });

  it("says the same as nginx's pattern for every route, on generated paths", () => {
    // Seeded, so a disagreement is reproducible: the path is in the message.
    let seed = 11;
    /** @param {number} n */
    const random = (n) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const pieces = ['/', '//', 'employers', 'EMPLOYERS', 'featured-jobs', 'coming-soon', 'x', '.', '-', 'Jobs'];
    const paths = pages.flatMap((page) => [page.route, `${page.route}/`, page.route.toUpperCase()]);
    for (let i = 0; i < 5000; i += 1) {
      const length = 1 + random(4);
      paths.push(`/${Array.from({ length }, () => pieces[random(pieces.length)]).join('')}`);
    }
    for (const pathname of paths) {
      for (const page of pages) {
        const byRule = normalizeRoutePath(pathname) === page.route;
        const byPattern = new RegExp(routePattern(page.route), 'i').test(pathname);
        expect({ pathname, route: page.route, matches: byPattern }).toEqual({
          pathname,
          route: page.route,
          matches: byRule,
        });
      }
    }
  });
});
