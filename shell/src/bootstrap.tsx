import { collectWhenIdle, watchScreens } from './fieldData/signals';
import { placeInCanaries } from './remotes/canaryBucket';
import { pageLoader } from './remotes/federation';
import { inTaskOfItsOwn } from './tasks';

// The shared singletons are evaluated by now (index.ts). Evaluating the shell's own modules (router, screens), then
// starting the shell: two tasks. The imports are eager: no new chunk, only where their evaluation happens. `started`
// settles once the first route's load and the prefetch are under way.
export const started = inTaskOfItsOwn(() =>
  Promise.all([
    import(/* webpackMode: "eager" */ './renderShell'),
    import(/* webpackMode: "eager" */ './remotes/prefetchPages'),
  ]),
).then(([{ renderShell }, { prefetchLikelyPages }]) =>
  inTaskOfItsOwn(() => {
    const firstRouteSettled = renderShell(pageLoader, { onNavigation: watchScreens });
    prefetchLikelyPages(pageLoader, firstRouteSettled);
    collectWhenIdle(firstRouteSettled);
    placeInCanaries(firstRouteSettled);
  }),
);
