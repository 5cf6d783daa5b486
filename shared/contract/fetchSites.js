// Whether a request was made by the browser on its own or from a page of the site, by what the browser says of it
// (Sec-Fetch-Site): what a request that changes the browser's state for the site (an override's start, a preview's
// confirmation) must be, so that another site cannot make a visitor's browser send it. Both servers read it from here.

/**
 * The Sec-Fetch-Site values taken as the site's own: a URL opened in the browser (typed, pasted, a bookmark, a
 * terminal's link) or a request from a page of the same origin. `same-site` is another origin (another subdomain, or
 * another port), so it is not the site's own.
 */
const OWN_FETCH_SITES = ['none', 'same-origin'];

/**
 * Whether a request is the site's own. A request without the header comes from a browser that does not send it
 * (Safari before 16.4, Firefox before 90) or from no browser at all: it is taken, since no other site can make such a
 * browser send one that says otherwise, and a program that is no browser can set any cookie it wants anyway.
 * @param {string | undefined} fetchSite the request's Sec-Fetch-Site
 */
const fromTheSite = (fetchSite) => fetchSite === undefined || OWN_FETCH_SITES.includes(fetchSite);

module.exports = { OWN_FETCH_SITES, fromTheSite };
