#!/usr/bin/env node
// Generates an nginx configuration that serves the five dist/ folders with the same headers, caching, SPA fallback
// and 404 rules as the built-in server. The Content-Security-Policy is computed from remotes.json at generation
// time: when remotes move, regenerate and `nginx -s reload`.
//
// The shell's documents are composed per request with SSI (the same index.html template the built-in server composes,
// see document.js): page routes include the page's head and HTML from the remote's origin, unknown paths answer 404
// with the shell's 404 screen. Regenerate after editing remotes.json or when a page changes its query parameters.
//
// Usage: node @nativegtm/server/nginx [--out nginx.conf] [--remotes path/to/remotes.json] [--port-base 3000]
//          [--origin https://nativegtm.example] [--fragment-timeout-ms 400]
const fs = require('node:fs');
const path = require('node:path');
const { deployables } = require('../deployables');
const { COMMON_HEADERS, htmlHeaders, remoteOriginsFromFile } = require('../securityHeaders');
const { fragmentPaths, parsePageManifest, REMOTE_BASE_VARIABLE } = require('@nativegtm/contract/fragments');
const { DEFAULT_VALUE, SEPARATOR, variantPatterns } = require('@nativegtm/contract/pageVariant');
const { readRemotesConfig } = require('@nativegtm/contract/remotesConfig');
const { DEFAULT_ORIGIN, robotsTxt, siteHead, siteOrigin, sitemapXml } = require('../siteMeta');

const HASHED_ASSET = '"\\.[0-9a-f]{10}\\.(js|css)$"';

/**
 * Every status an include can answer but 200 (nginx's error_page takes 300-599; 499 is its own code for a client
 * that went away): turned into an empty include, so an error page, a redirect or a "not modified" is never pasted
 * into a document. (Other 2xx answers cannot be intercepted; a remote's static server does not send them for a plain
 * GET.)
 */
const INTERCEPTED_STATUSES = Array.from({ length: 300 }, (_, index) => 300 + index)
  .filter((status) => status !== 499)
  .join(' ');

const quote = (value) => `"${String(value).replace(/(["\\])/g, '\\$1')}"`;

/** nginx drops inherited add_header lines as soon as a location has its own, so every location lists them all. */
function headerLines(headers, indent) {
  return Object.entries(headers)
    .map(([name, value]) => `${indent}add_header ${name} ${quote(value)} always;`)
    .join('\n');
}

/** A literal for nginx's `return`: single-quoted, and without `$`, which nginx would read as a variable. */
function nginxText(text) {
  if (text.includes('$')) throw new Error(`nginx text cannot contain "$": ${text}`);
  return `'${text.replace(/(['\\])/g, '\\$1')}'`;
}

/** The route a page path is matched with: any letter case, trailing slashes ignored, like the shell's router. */
function routeLocation(route) {
  if (route === '/') return 'location = /';
  return `location ~* ${quote(`^${route.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/*$`)}`;
}

/**
 * The page's variant key, computed by nginx from the request's raw query with one map per parameter, from the very
 * regular expressions the built-in server runs (pageVariant.js: exactly one occurrence of a listed value, otherwise
 * the default), plus one map saying whether the key can be told without decoding (otherwise the page gets no HTML
 * and renders in the browser, as with the built-in server). The listed values come from the remote's
 * ssr/manifest.json when the configuration is generated (readPageQueries): regenerate when a page changes its
 * parameters (until then such URLs get HTML the browser does not hydrate but renders afresh).
 */
function variantMaps(remote, query, remoteIndex) {
  const patterns = variantPatterns(query);
  if (patterns.params.length === 0) return { maps: '', key: 'index', undecidable: undefined };
  const maps = patterns.params.map(({ repeated, value }, index) => {
    const variable = `$nativegtm_${remote}_${index}`;
    // A capture group's name, which PCRE2 allows 32 characters: not built from the remote's name.
    const group = `ngtm${remoteIndex}_${index}`;
    return `
    map $args ${variable} {
        default ${quote(DEFAULT_VALUE)};
        ${quote(`~${repeated}`)} ${quote(DEFAULT_VALUE)};
        ${quote(`~${value(group)}`)} $${group};
    }`;
  });
  const undecidable = `$nativegtm_${remote}_undecidable`;
  maps.push(`
    map $args ${undecidable} {
        default 0;
${patterns.undecidable.map((pattern) => `        ${quote(`~${pattern}`)} 1;`).join('\n')}
    }`);
  const key = patterns.params.map((_, index) => `\${nativegtm_${remote}_${index}}`).join(SEPARATOR);
  return { maps: maps.join('\n'), key, undecidable };
}

/** Whether this configuration's own server for the deployable is where remotes.json says the remote is. */
function servedHere(manifestUrl, port) {
  const url = new URL(manifestUrl);
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  return local && Number(url.port || (url.protocol === 'https:' ? 443 : 80)) === port;
}

/**
 * Each page's query parameters (the values its build pre-rendered), read from its remote's ssr/manifest.json: from
 * the dist/ folder this configuration serves when remotes.json points at it, otherwise from the remote's origin
 * (the remote's deployment is the truth, wherever it is). A page whose manifest cannot be read is configured as one
 * without parameters, with a warning: pages with parameters then get no server HTML until the configuration is
 * generated again with the remote up.
 * @returns {Promise<{ queries: Record<string, Record<string, string[]>>, warnings: string[] }>}
 */
async function readPageQueries({ remotes, roots = {}, ports = {}, timeoutMs = 5000, fetch: fetchImpl = fetch }) {
  const queries = {};
  const warnings = [];
  for (const deployable of deployables.filter((d) => d.role === 'remote')) {
    const manifestUrl = remotes[deployable.remote];
    if (!manifestUrl) continue;
    const url = new URL(fragmentPaths.manifest, new URL('./', manifestUrl));
    try {
      let text;
      if (servedHere(manifestUrl, ports[deployable.name] ?? deployable.port)) {
        const root = roots[deployable.name] ?? path.join(deployable.dir, 'dist');
        text = fs.readFileSync(path.join(root, fragmentPaths.manifest), 'utf8');
      } else {
        const response = await fetchImpl(url, { redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
        if (response.status !== 200) {
          await response.body?.cancel();
          throw new Error(`HTTP ${response.status}`);
        }
        text = await response.text();
      }
      queries[deployable.remote] = parsePageManifest(text, deployable.remote).query ?? {};
    } catch (error) {
      warnings.push(
        `${deployable.remote}: could not read ${url.href} (${error.message}); ${deployable.route} is configured ` +
          'as a page without query parameters: generate again once the remote is up.',
      );
      queries[deployable.remote] = {};
    }
  }
  return { queries, warnings };
}

/** Where a remote is and which variants its page has, as far as this configuration knows. */
function remotePlan({ deployable, remotes, queries }, remoteIndex) {
  const manifestUrl = remotes[deployable.remote];
  if (!manifestUrl) return undefined;
  return {
    remote: deployable.remote,
    route: deployable.route,
    base: new URL('./', manifestUrl),
    upstream: `nativegtm_${deployable.remote}`,
    ...variantMaps(deployable.remote, queries[deployable.remote] ?? {}, remoteIndex),
  };
}

function upstreamBlock(plan) {
  const port = plan.base.port || (plan.base.protocol === 'https:' ? 443 : 80);
  return `
    upstream ${plan.upstream} {
        # Never marked failed: after a remote that hung is back, nginx must not skip it for fail_timeout.
        server ${plan.base.hostname}:${port} max_fails=0;
        keepalive 16;
    }`;
}

/**
 * The includes of one remote: its head and its page's HTML, fetched from the remote's origin (nothing else: no
 * redirect is followed), within the fragment timeout. Any failure (refused, timeout, error status, redirect) becomes
 * an empty 200, so SSI prints the template's fallback instead of an error page.
 */
function remoteIncludeLocations(plan, timeoutMs, i) {
  const scheme = plan.base.protocol.slice(0, -1);
  const proxy = (file) => `${scheme}://${plan.upstream}${plan.base.pathname}${file}`;
  const common = `
${i}    internal;
${i}    proxy_http_version 1.1;
${i}    # None of the visitor's headers (Cookie, Authorization, Range, If-None-Match…) go to a remote: an include is
${i}    # the same request for every visitor.
${i}    proxy_pass_request_headers off;
${i}    # Connections to the remote are kept open for the next include (the upstream's keepalive).
${i}    proxy_set_header Connection "";
${i}    proxy_set_header Host ${quote(plan.base.host)};
${i}    proxy_set_header Accept-Encoding "";
${i}    proxy_pass_request_body off;
${i}    proxy_connect_timeout ${timeoutMs}ms;
${i}    proxy_send_timeout ${timeoutMs}ms;
${i}    proxy_read_timeout ${timeoutMs}ms;
${i}    # A host name may have several addresses (localhost: ::1 and 127.0.0.1): an address that refuses is followed
${i}    # by one more try; a timeout is not (it has used the whole fragment timeout).
${i}    proxy_next_upstream error;
${i}    proxy_next_upstream_tries 2;
${i}    proxy_next_upstream_timeout ${timeoutMs}ms;
${i}    proxy_redirect off;
${i}    proxy_intercept_errors on;
${i}    error_page ${INTERCEPTED_STATUSES} =200 /_compose/empty;${
    scheme === 'https'
      ? `
${i}    proxy_ssl_server_name on;
${i}    proxy_ssl_name ${quote(plan.base.hostname)};
${i}    proxy_ssl_verify on;
${i}    proxy_ssl_trusted_certificate /etc/ssl/certs/ca-certificates.crt;`
      : ''
  }`;
  return `
${i}location = /_compose/page-head/${plan.remote} {${common}
${i}    proxy_pass ${quote(proxy(fragmentPaths.head) + '$nativegtm_no_args')};
${i}    # The head's stylesheet URLs are an SSI echo of the remote's base URL. (Not sub_filter: it would also run
${i}    # over the template's fallback block when the include fails, and garble it.)
${i}    set $${REMOTE_BASE_VARIABLE} ${quote(plan.base.href)};
${i}    ssi on;
${i}    ssi_types text/html;
${i}}

${i}location = /_compose/page-body/${plan.remote} {${common}${
    plan.undecidable
      ? `
${i}    # A query only decoding could read: no server HTML, the page renders in the browser (pageVariant.js).
${i}    if (${plan.undecidable}) {
${i}        return 204;
${i}    }`
      : ''
  }
${i}    # $nativegtm_no_args: with a variable in proxy_pass, nginx sends this URI as it is, without the visitor's query.
${i}    proxy_pass ${quote(proxy(fragmentPaths.body(plan.key)) + '$nativegtm_no_args')};
${i}}
`;
}

/** The shell's documents: the template (index.html) run through SSI with $page set to the screen. */
function documentLocation(header, page, { i, documentHeaders, extra = '' }) {
  return `
${i}${header} {${extra}
${i}    set $page ${page};
${i}    ssi on;
${i}    ssi_types text/html;
${i}    gzip_static off;
${i}    gzip on;
${i}    gzip_types text/html;
${headerLines(documentHeaders, i + '    ')}
${i}    rewrite ^ /index.html break;
${i}}
`;
}

function shellLocations({ root, origin, plans, timeoutMs, documentHeaders, revalidate }) {
  const i = '        ';
  const pages = plans
    .map((plan) => documentLocation(routeLocation(plan.route), plan.remote, { i, documentHeaders }))
    .join('');
  const includes = plans.map((plan) => remoteIncludeLocations(plan, timeoutMs, i)).join('');
  const siteHeads = plans
    .map(
      (plan) => `
${i}location = /_compose/site-head/${plan.remote} {
${i}    internal;
${i}    default_type text/html;
${i}    return 200 ${nginxText(siteHead(origin, plan.route))};
${i}}
`,
    )
    .join('');
  return `
${i}# Page routes: documents composed per request (SSI) from index.html and the pages' server-rendered HTML.
${pages}
${i}# Unknown paths: HTTP 404 with the shell's own 404 screen, composed the same way.
${i}location / {
${i}    error_page 404 /_compose/not-found;
${i}    return 404;
${i}}
${documentLocation('location = /_compose/not-found', 'not-found', {
  i,
  documentHeaders,
  extra: `
${i}    internal;`,
})}
${i}# The template is never served as it is.
${i}location = /index.html {
${i}    error_page 404 /_compose/not-found;
${i}    return 404;
${i}}
${includes}${siteHeads}
${i}location = /_compose/site-head/not-found {
${i}    internal;
${i}    default_type text/html;
${i}    return 200 ${nginxText(siteHead(origin, undefined))};
${i}}

${i}location = /_compose/page-head/not-found {
${i}    internal;
${i}    default_type text/html;
${i}    alias ${quote(path.join(root, fragmentPaths.head))};
${i}}

${i}location = /_compose/page-body/not-found {
${i}    internal;
${i}    default_type text/html;
${i}    alias ${quote(path.join(root, fragmentPaths.body('index')))};
${i}}

${i}# A failed include: an empty body, so SSI prints the template's fallback block.
${i}location = /_compose/empty {
${i}    internal;
${i}    return 204;
${i}}

${i}location = /robots.txt {
${i}    default_type text/plain;
${headerLines(revalidate, i + '    ')}
${i}    return 200 ${nginxText(robotsTxt(origin))};
${i}}

${i}location = /sitemap.xml {
${i}    default_type application/xml;
${headerLines(revalidate, i + '    ')}
${i}    return 200 ${nginxText(
    sitemapXml(
      origin,
      plans.map((plan) => plan.route),
    ),
  )};
${i}}
`;
}

function serverBlock({ deployable, root, port, listenHost, origins, remotesFile, shell }) {
  const host = deployable.role === 'host';
  const base = { ...COMMON_HEADERS, ...(host ? {} : { 'Access-Control-Allow-Origin': '*' }) };
  const revalidate = { ...base, 'Cache-Control': 'no-cache' };
  const immutable = { ...base, 'Cache-Control': 'public, max-age=31536000, immutable' };
  const documentHeaders = { ...revalidate, ...htmlHeaders(host ? origins : []) };
  const i = '        ';
  return `
    # ${deployable.name} (${deployable.role})
    server {
        listen ${listenHost ? `${listenHost}:` : ''}${port};
        root ${quote(root)};
        index index.html;

${
  host
    ? shellLocations({ root, ...shell, documentHeaders, revalidate })
    : `
        location = /index.html {
${headerLines(documentHeaders, i + '    ')}
        }
`
}${
    host
      ? `
        # Deployment configuration, edited in place by operators: never precompressed, always revalidated.
        location = /remotes.json {
            gzip_static off;
${remotesFile ? `            alias ${quote(remotesFile)};\n` : ''}${headerLines(revalidate, i + '    ')}
        }
`
      : ''
  }
        location ~ ${HASHED_ASSET} {
${headerLines(immutable, i + '    ')}
            try_files $uri @missing;
        }

        # A path with an extension is a file: missing means 404, never the app's HTML.
        location ~ "\\.[A-Za-z0-9]+$" {
${headerLines(revalidate, i + '    ')}
            try_files $uri @missing;
        }

        location @missing {
            default_type text/plain;
${headerLines(revalidate, i + '    ')}
            return 404 "Not found\\n";
        }

${
  host
    ? ''
    : `
        location / {
${headerLines(documentHeaders, i + '    ')}
            try_files $uri $uri/ @missing;
        }
`
}    }`;
}

/** The remotes.json the configuration is generated from, and its valid entries. */
function remotesOf({ roots = {}, remotesFile }) {
  const shellDeployable = deployables.find((d) => d.role === 'host');
  const remotesPath = remotesFile ?? path.join(roots.shell ?? path.join(shellDeployable.dir, 'dist'), 'remotes.json');
  try {
    return { remotesPath, remotes: readRemotesConfig(fs.readFileSync(remotesPath, 'utf8')) };
  } catch {
    // No remotes.json: every page falls back to rendering in the browser, which reports the problem.
    return { remotesPath, remotes: {} };
  }
}

/**
 * The configuration's text. `queries`: each page's query parameters (readPageQueries); generateNginxConfig reads
 * them and calls this.
 * @param {{ roots?: Record<string, string>, ports?: Record<string, number>, remotesFile?: string,
 *   listenHost?: string, prefix: string, mimeTypes?: string, origin?: string, fragmentTimeoutMs?: number,
 *   queries: Record<string, Record<string, string[]>> }} options
 */
function renderNginxConfig({
  roots = {},
  ports = {},
  remotesFile,
  listenHost,
  prefix,
  origin = DEFAULT_ORIGIN,
  fragmentTimeoutMs = 400,
  mimeTypes = '/etc/nginx/mime.types',
  queries,
}) {
  if (!queries) throw new Error("renderNginxConfig needs the pages' queries: generateNginxConfig reads them");
  const { remotesPath, remotes } = remotesOf({ roots, remotesFile });
  const origins = remoteOriginsFromFile(remotesPath);
  const plans = deployables
    .filter((d) => d.role === 'remote')
    .map((deployable, index) => remotePlan({ deployable, remotes, queries }, index))
    .filter(Boolean);
  const shell = { origin: siteOrigin(origin), plans, timeoutMs: fragmentTimeoutMs };
  const servers = deployables
    .map((deployable) =>
      serverBlock({
        deployable,
        root: roots[deployable.name] ?? path.join(deployable.dir, 'dist'),
        port: ports[deployable.name] ?? deployable.port,
        listenHost,
        origins,
        remotesFile: deployable.role === 'host' ? remotesFile : undefined,
        shell,
      }),
    )
    .join('\n');
  const upstreams = plans.map(upstreamBlock).join('\n');
  const maps = plans
    .map((plan) => plan.maps)
    .filter(Boolean)
    .join('\n');
  return `# Generated by @nativegtm/server/nginx: edit remotes.json and regenerate rather than editing this file.
worker_processes 1;
worker_rlimit_nofile 8192;
pid ${quote(path.join(prefix, 'nginx.pid'))};
error_log ${quote(path.join(prefix, 'error.log'))} warn;

events {
    # A document holds its visitor's connection and two to remotes (four when nginx serves the remotes too).
    worker_connections 4096;
}

http {
    include ${quote(mimeTypes)};
    default_type application/octet-stream;
    charset utf-8;
    charset_types text/css application/javascript application/json;
    access_log off;
    server_tokens off;
    sendfile on;
    gzip_static on;
    gzip_vary on;
    client_body_temp_path ${quote(path.join(prefix, 'client_body'))};
    proxy_temp_path ${quote(path.join(prefix, 'proxy'))};
    fastcgi_temp_path ${quote(path.join(prefix, 'fastcgi'))};
    uwsgi_temp_path ${quote(path.join(prefix, 'uwsgi'))};
    scgi_temp_path ${quote(path.join(prefix, 'scgi'))};
    # Empty, for proxy_pass URIs that must be sent as they are (with a variable in it, nginx adds no query).
    map $uri $nativegtm_no_args {
        default "";
    }
${upstreams}
${maps}
${servers}
}
`;
}

/**
 * Reads each page's query parameters (from the remotes' manifests), then renders the configuration.
 * @param {Parameters<typeof renderNginxConfig>[0] & { queries?: never }} options
 * @returns {Promise<{ config: string, warnings: string[] }>}
 */
async function generateNginxConfig(options) {
  const { remotes } = remotesOf(options);
  const { queries, warnings } = await readPageQueries({ remotes, roots: options.roots, ports: options.ports });
  return { config: renderNginxConfig({ ...options, queries }), warnings };
}

module.exports = { generateNginxConfig, renderNginxConfig, readPageQueries };

if (require.main === module) {
  const arg = (flag) => {
    const index = process.argv.indexOf(flag);
    return index > -1 ? process.argv[index + 1] : undefined;
  };
  const base = Number(arg('--port-base') ?? 3000);
  const ports = Object.fromEntries(deployables.map((d) => [d.name, base + (d.port - 3000)]));
  const out = arg('--out');
  generateNginxConfig({
    ports,
    remotesFile: arg('--remotes') && path.resolve(arg('--remotes')),
    origin: arg('--origin') ?? process.env.SITE_ORIGIN,
    fragmentTimeoutMs: arg('--fragment-timeout-ms') ? Number(arg('--fragment-timeout-ms')) : undefined,
    prefix: path.resolve(arg('--prefix') ?? '/var/lib/nativegtm-nginx'),
  }).then(
    ({ config, warnings }) => {
      for (const warning of warnings) console.warn(`warning: ${warning}`);
      if (out) fs.writeFileSync(out, config);
      else process.stdout.write(config);
    },
    (error) => {
      console.error(error.message);
      process.exitCode = 1;
    },
  );
}
