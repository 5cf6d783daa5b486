import { startFieldData } from './fieldData/signals';
import { loadSharedModule, pageLoader } from './remotes/federation';
import { watching } from './remotes/pageLeft';
import { remoteForPath } from './routeTable';
import { inTurns } from './tasks';

// Whether this document's page views are measured (field data), decided before anything else runs, so that the
// start-up's own errors are kept too.
startFieldData();

// First, the page's remote starts downloading (remotes.json, its manifest, remoteEntry.js and the page's chunks), in
// parallel with React and the router, instead of after them: on a first visit that takes the remote's requests off
// the end of the chain. Only downloads: the page's code runs once the router asks for it. In a task after this
// script's own evaluation, which starts the federation runtime and is long enough already.
//
// Then the async boundary Module Federation needs: the shared singletons (React, the design system) are negotiated
// before any of them is used, then the bootstrap starts the shell. Importing it statically would render nothing.
// One singleton per task, then the bootstrap: for each, the federation runtime checks the share scope and versions,
// loads its chunk and evaluates it; a few milliseconds each, all at once the longest task of the start-up. (The list
// is the build's sharedSingletons: one left out here is still negotiated, with the bootstrap, in a longer task.)
//
// From the start until the first route's load and the prefetch are under way, the page watches for a navigation (as
// each load does while it runs): a reload in a gap between the start-up's tasks must not read as the loads that
// start after it failing (remotes/pageLeft.ts).
const stopWatching = watching();
void inTurns([
  () => {
    const remote = remoteForPath(window.location.pathname);
    if (remote) pageLoader.prefetch(remote);
  },
  () => import('react'),
  () => import('react/jsx-runtime'),
  // React DOM, the largest: its chunk is compiled as it arrives, and its module evaluated in the next task.
  () => loadSharedModule('react-dom/client'),
  () => import('react-dom/client'),
  () => import('@nativegtm/design-system'),
  () => import('./bootstrap'),
])
  .then(() => import('./bootstrap'))
  .then(({ started }) => started)
  .finally(stopWatching);
