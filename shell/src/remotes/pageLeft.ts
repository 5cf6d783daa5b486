// Whether the visitor is leaving this page (a reload, a link to another site, the tab closed). The browser then aborts
// the fetches under way (WebKit rejects them with "Load failed"): a remote whose files were still coming is not down,
// and none of its files was refused, so nothing is logged or reported for it. A page the back-forward cache shows
// again is not being left any more. Only the browser's own events count: a script on the page that dispatches a
// pagehide of its own must not silence the reports of refused files.
let left = false;

addEventListener('pagehide', (event) => {
  if (event.isTrusted) left = true;
});
addEventListener('pageshow', (event) => {
  if (event.isTrusted) left = false;
});

export const pageLeft = (): boolean => left;
