import { pageLoader } from './remotes/federation';
import { remoteForPath } from './routeTable';

// The page's remote starts downloading now (remotes.json, its manifest, remoteEntry.js and the page's chunks), in
// parallel with React and the router, instead of after them: on a first visit that takes the remote's requests off
// the end of the chain. Only downloads: the page's code runs once the router asks for it.
const remote = remoteForPath(window.location.pathname);
if (remote) pageLoader.prefetch(remote);

// The async boundary Module Federation needs: shared singletons (React, the router, the design system) are
// negotiated while this import loads, before any of them is used. Importing bootstrap statically renders nothing.
// Started in a task of its own: the negotiation is main-thread work that would otherwise lengthen this script's
// evaluation, already the longest task of the start-up.
setTimeout(() => import('./bootstrap'), 0);
