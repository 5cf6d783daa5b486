import { pageLoader } from './remotes/federation';
import { remoteForPath } from './routeTable';
import { inTurns } from './tasks';

// The page's remote starts downloading now (remotes.json, its manifest, remoteEntry.js and the page's chunks), in
// parallel with React and the router, instead of after them: on a first visit that takes the remote's requests off
// the end of the chain. Only downloads: the page's code runs once the router asks for it.
const remote = remoteForPath(window.location.pathname);
if (remote) pageLoader.prefetch(remote);

// The async boundary Module Federation needs: the shared singletons (React, the design system) are negotiated before
// any of them is used, then the bootstrap starts the shell. Importing it statically would render nothing.
// One singleton per task, then the bootstrap: for each, the federation runtime checks the share scope and versions,
// loads its chunk and evaluates it; a few milliseconds each, all at once the longest task of the start-up. (The list
// is the build's sharedSingletons: one left out here is still negotiated, with the bootstrap, in a longer task.)
void inTurns([
  () => import('react'),
  () => import('react/jsx-runtime'),
  () => import('react-dom/client'),
  () => import('@nativegtm/design-system'),
  () => import('./bootstrap'),
]);
