// What the shell says about the site as a whole: the head tags every page shares (canonical URL and link-preview
// tags, all absolute on the site's public origin), robots.txt and sitemap.xml. The public origin comes from
// configuration (SITE_ORIGIN), never from a request's Host header, which anyone can set and which would end up in
// cached pages.
const { escapeHtml } = require('@nativegtm/contract/fragments');
const { SAMPLE_RATE_META } = require('@nativegtm/contract/fieldData');
const { CANARIES_META } = require('@nativegtm/contract/canaryBuckets');

const DEFAULT_ORIGIN = 'http://localhost:3000';
const OG_IMAGE = { path: '/og-image.png', width: 1200, height: 630, alt: 'NativeGTM: AI-native go-to-market talent' };

/**
 * The configured origin, checked: an http(s) origin without path, query or credentials.
 * @param {string} [value]
 */
function siteOrigin(value = DEFAULT_ORIGIN) {
  let url;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`SITE_ORIGIN must be an absolute http(s) URL, got ${JSON.stringify(value)}`);
  }
  const bare = url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
  if (!['http:', 'https:'].includes(url.protocol) || !bare) {
    throw new Error(`SITE_ORIGIN must be an origin like https://nativegtm.example, got ${JSON.stringify(value)}`);
  }
  return url.origin;
}

/**
 * The share of page views whose field data the shell collects, when it is not all of them (RUM_SAMPLE_RATE).
 * @param {number} sampleRate
 */
const sampleRateTag = (sampleRate) =>
  sampleRate === 1 ? [] : [`<meta name="${SAMPLE_RATE_META}" content="${sampleRate}" />`];

/**
 * The running canaries' shares, for the browser to know whether it is on a side (@nativegtm/contract/canaryBuckets).
 * @param {string | undefined} canaries the list (canariesContent), or nginx's SSI that prints it; nothing: no tag
 */
const canariesTag = (canaries) => (canaries ? [`<meta name="${CANARIES_META}" content="${canaries}" />`] : []);

/**
 * The shell's head tags for a page route, or for the 404 screen (route undefined): not to be indexed.
 * @param {string} origin
 * @param {string | undefined} route
 * @param {{ sampleRate?: number, canaries?: string }} [options] sampleRate: RUM_SAMPLE_RATE; canaries: see canariesTag
 */
function siteHead(origin, route, { sampleRate = 1, canaries } = {}) {
  const measured = [...sampleRateTag(sampleRate), ...canariesTag(canaries)];
  if (route === undefined) return ['<meta name="robots" content="noindex" />', ...measured].join('\n');
  const url = escapeHtml(`${origin}${route}`);
  const image = escapeHtml(`${origin}${OG_IMAGE.path}`);
  return [
    `<link rel="canonical" href="${url}" />`,
    '<meta property="og:type" content="website" />',
    '<meta property="og:site_name" content="NativeGTM" />',
    `<meta property="og:url" content="${url}" />`,
    `<meta property="og:image" content="${image}" />`,
    `<meta property="og:image:width" content="${OG_IMAGE.width}" />`,
    `<meta property="og:image:height" content="${OG_IMAGE.height}" />`,
    `<meta property="og:image:alt" content="${escapeHtml(OG_IMAGE.alt)}" />`,
    '<meta name="twitter:card" content="summary_large_image" />',
    ...measured,
  ].join('\n');
}

/** @param {string} origin */
function robotsTxt(origin) {
  return `User-agent: *\nAllow: /\n\nSitemap: ${origin}/sitemap.xml\n`;
}

/**
 * @param {string} origin
 * @param {string[]} routes
 */
function sitemapXml(origin, routes) {
  const urls = routes.map((route) => `  <url><loc>${escapeHtml(`${origin}${route}`)}</loc></url>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}

module.exports = { DEFAULT_ORIGIN, OG_IMAGE, siteOrigin, siteHead, robotsTxt, sitemapXml };
