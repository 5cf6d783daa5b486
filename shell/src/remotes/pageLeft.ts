// Whether the visitor is leaving this page (a reload, a link to another site, the tab closed). The browser then aborts
// the fetches under way (WebKit rejects them with "Load failed"): a remote whose files were still coming is not down,
// and none of its files was refused, so nothing is logged or reported for it. A page the back-forward cache shows
// again is not being left any more.
let left = false;

addEventListener('pagehide', () => {
  left = true;
});
addEventListener('pageshow', () => {
  left = false;
});

export const pageLeft = (): boolean => left;
