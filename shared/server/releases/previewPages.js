// The pages a preview's start answers with instead of a cookie (previews.js, and nginx from the same functions):
// the question a link from another site gets ("Preview jobs release 7575b04f?"), and the refusals. Plain HTML with a
// form, no script: the button posts back to the site, Cancel is a link to the live page. Styled by the shell's own
// stylesheet (the design tokens and the site's base rules) and a few rules of their own on those tokens, allowed by
// their hash.
const { createHash } = require('node:crypto');
const { escapeHtml } = require('@nativegtm/contract/fragments');
const { COMMON_HEADERS, PERMISSIONS_POLICY } = require('../securityHeaders');
const { INTEGRITY_VALUE } = require('@nativegtm/contract/integrity');

const STYLE = `
body { display: grid; min-height: 100vh; place-items: center; padding: var(--space-6) var(--layout-gutter);
  background: var(--color-surface-muted); }
main { width: 100%; max-width: 34rem; padding: var(--space-8); background: var(--color-surface-raised);
  border: 1px solid var(--color-border); border-radius: var(--radius-lg); box-shadow: var(--shadow-md); }
.brand { margin-bottom: var(--space-4); color: var(--color-brand-700); font-size: var(--font-size-sm);
  font-weight: var(--font-weight-bold); letter-spacing: var(--letter-spacing-wide); text-transform: uppercase; }
h1 { margin-bottom: var(--space-3); color: var(--color-ink-900); font-size: var(--font-size-2xl);
  line-height: var(--line-height-tight); }
p { margin-bottom: var(--space-3); }
code { font-family: var(--font-family-mono); }
.failed { padding: var(--space-3) var(--space-4); color: var(--color-danger-700); background: var(--color-danger-50);
  border-radius: var(--radius-sm); font-weight: var(--font-weight-semibold); }
.actions { display: flex; flex-wrap: wrap; gap: var(--space-3); align-items: center; margin-top: var(--space-6); }
.button { display: inline-flex; align-items: center; justify-content: center; min-height: 2.75rem;
  padding: var(--space-2) var(--space-5); border: 1.5px solid transparent; border-radius: var(--radius-pill);
  font-weight: var(--font-weight-semibold); line-height: 1.2; text-decoration: none; cursor: pointer; }
.primary { color: var(--color-ink-inverse); background: var(--color-brand-600); box-shadow: var(--shadow-brand); }
.primary:hover { background: var(--color-brand-700); }
.secondary { color: var(--color-ink-900); background: var(--color-surface); border-color: var(--color-border-strong); }
.secondary:hover { border-color: var(--color-ink-500); }
.button:focus-visible { outline: var(--focus-ring-width) solid var(--focus-ring-color);
  outline-offset: var(--focus-ring-offset); }
.command { display: block; padding: var(--space-2) var(--space-3); font-size: var(--font-size-sm);
  background: var(--color-surface-muted); border-radius: var(--radius-sm); overflow-wrap: anywhere; }
@media (max-width: 30rem) { main { padding: var(--space-6); } .actions > * { flex: 1 1 100%; } .button { width: 100%; } }
`;

/**
 * The pages' headers: their own policy (their stylesheet by hash, the shell's stylesheet from the site, a form that
 * posts to the site, never in a frame: a framed button could be clicked for the visitor), personal and unindexed.
 * @param {Record<string, string>} personal the preview's answers' Cache-Control and X-Robots-Tag
 */
function previewPageHeaders(personal) {
  const hash = createHash('sha256').update(STYLE).digest('base64');
  return {
    ...COMMON_HEADERS,
    ...personal,
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': [
      "default-src 'none'",
      `style-src 'self' 'sha256-${hash}'`,
      "font-src 'self'",
      "form-action 'self'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
    'X-Frame-Options': 'DENY',
    'Permissions-Policy': PERMISSIONS_POLICY,
  };
}

/**
 * @typedef {{ href: string, integrity: string }} Stylesheet
 */

/**
 * The shell's stylesheets, as its template (index.html) links them, with their integrity: site paths only, so that
 * nothing read from the file can leave the attribute it is written into, and only with a well-formed integrity, since
 * a preview's page loads nothing unchecked either.
 * @param {string} template
 * @returns {Stylesheet[]}
 */
function shellStylesheets(template) {
  /** @param {string} tag @param {string} name */
  const attribute = (tag, name) => new RegExp(`\\b${name}=["']?([^"'\\s>]+)`, 'i').exec(tag)?.[1] ?? '';
  return [...template.matchAll(/<link\b[^>]*>/gi)]
    .map((match) => match[0])
    .filter((tag) => /\brel=["']?stylesheet\b/i.test(tag))
    .map((tag) => ({ href: attribute(tag, 'href'), integrity: attribute(tag, 'integrity') }))
    .filter(
      ({ href, integrity }) => /^\/[\w./-]+$/.test(href) && !href.startsWith('//') && INTEGRITY_VALUE.test(integrity),
    );
}

/**
 * @typedef {object} PageText
 * @property {string} title the document's title, and its heading
 * @property {string[]} paragraphs each a paragraph, HTML (escaped by the caller)
 * @property {boolean} [failed] the release failed its gate: said first, loudly
 * @property {{ action: string, label: string }} [form] a button that posts to `action`
 * @property {{ href: string, label: string }} link where the visitor may go instead
 */

/**
 * @param {PageText} text
 * @param {Stylesheet[]} stylesheets the shell's (shellStylesheets)
 */
function previewPage({ title, paragraphs, failed, form, link }, stylesheets) {
  const actions = [
    form &&
      `<form method="post" action="${escapeHtml(form.action)}"><button class="button primary" type="submit">` +
        `${escapeHtml(form.label)}</button></form>`,
    `<a class="button ${form ? 'secondary' : 'primary'}" href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a>`,
  ].filter(Boolean);
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex">',
    `<title>${escapeHtml(title)} · NativeGTM</title>`,
    ...stylesheets.map(
      ({ href, integrity }) =>
        `<link rel="stylesheet" href="${escapeHtml(href)}" integrity="${integrity}" crossorigin="anonymous">`,
    ),
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    '<main>',
    '<p class="brand">NativeGTM</p>',
    `<h1>${escapeHtml(title)}</h1>`,
    ...(failed ? ['<p class="failed">This release FAILED the gate: it is not what visitors will get.</p>'] : []),
    ...paragraphs.map((paragraph) => `<p>${paragraph}</p>`),
    `<div class="actions">${actions.join('')}</div>`,
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/**
 * The words of each page, for a release named by `remote` and `id` (HTML-escaped here; nginx passes its variables,
 * which escaping leaves as they are).
 * @param {{ remote: string, id: string, shortId: string, action: string, route: string, failed?: boolean }} release
 *   action: the start's own path (the form posts it back); route: the remote's page without the preview
 */
const previewPageTexts = ({ remote, id, shortId, action, route, failed }) => {
  const release = `release <code>${escapeHtml(shortId)}</code>`;
  const named = `<code>${escapeHtml(remote)}</code> ${release}`;
  return {
    /** @type {PageText} A link from another site: asked, not started. */
    ask: {
      title: `Preview ${remote} release ${shortId}?`,
      failed,
      paragraphs: [
        `A link asks to show you this site with ${release} of its <code>${escapeHtml(remote)}</code> page in place ` +
          'of the live one, in this browser only, for an hour or until you end it.',
        'The link came from another site. Open the preview only if you expected it.',
      ],
      form: { action, label: 'Open preview' },
      link: { href: route, label: 'Cancel' },
    },
    /** @type {PageText} A confirmation posted from another site. */
    foreign: {
      title: 'This preview was not opened',
      paragraphs: [
        `The request to preview ${named} came from another site, and only this site's own page may confirm it.`,
        `Open the preview link again to be asked here.`,
      ],
      link: { href: route, label: 'Go to the live page' },
    },
    /** @type {PageText} A release whose gate failed, through a link without its mark. */
    failedGate: {
      title: 'This release failed its checks',
      paragraphs: [
        `${named} failed the release gate, so only a link its team makes for it opens a preview:`,
        `<code class="command">npm run preview -- ${escapeHtml(remote)} ${escapeHtml(id)} --allow-failed</code>`,
      ],
      link: { href: route, label: 'Go to the live page' },
    },
  };
};

module.exports = { previewPage, previewPageHeaders, previewPageTexts, shellStylesheets };
