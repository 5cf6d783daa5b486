#!/usr/bin/env node
// Generates an nginx configuration that serves the five dist/ folders with the same headers, caching, SPA fallback
// and 404 rules as the built-in server. The Content-Security-Policy is computed from remotes.json at generation
// time: when remotes move, regenerate and `nginx -s reload`.
//
// The shell's documents are composed per request with SSI (the same index.html template the built-in server composes,
// see document.js): page routes include the page's head and HTML from the remote's origin, unknown paths answer 404
// with the shell's 404 screen. Regenerate after editing remotes.json or when a page changes its query parameters.
//
// Usage: node shared/server/nginx.js [--out nginx.conf] [--remotes path/to/remotes.json] [--port-base 3000]
//          [--origin https://nativegtm.example] [--fragment-timeout-ms 400]
const fs = require('node:fs');
const path = require('node:path');
const { deployables } = require('./site');
const { COMMON_HEADERS, htmlHeaders, remoteOriginsFromFile } = require('./security');
const { fragmentPaths, REMOTE_BASE_VARIABLE } = require('./fragments');
const { DEFAULT_VALUE, SEPARATOR } = require('./pageVariant');
const { readRemotes } = require('./remotes');
const { DEFAULT_ORIGIN, robotsTxt, siteHead, siteOrigin, sitemapXml } = require('./siteMeta');

const HASHED_ASSET = '"\\.[0-9a-f]{10}\\.(js|css)$"';

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
 * The page's variant key, computed by nginx from the request's query with one map per parameter: the same rule as
 * pageVariant.js (exactly one occurrence of a listed value, otherwise the default). The listed values are read from
 * the remote's ssr/manifest.json when the configuration is generated: regenerate when a page changes its
 * parameters (until then such URLs get HTML the browser does not hydrate but renders afresh).
 */
function variantMaps(remote, query) {
  const names = Object.keys(query);
  if (names.length === 0) return { maps: '', key: 'index' };
  const maps = names.map((name, index) => {
    const variable = `$nativegtm_${remote}_${index}`;
    const value = `nativegtm_${remote}_${index}_value`;
    return `
    map $args ${variable} {
        default ${quote(DEFAULT_VALUE)};
        ${quote(`~(^|&)${name}=[^&]*&(.*&)?${name}=`)} ${quote(DEFAULT_VALUE)};
        ${quote(`~(^|&)${name}=(?<${value}>${query[name].join('|')})(&|$)`)} $${value};
    }`;
  });
  const key = names.map((_, index) => `\${nativegtm_${remote}_${index}}`).join(SEPARATOR);
  return { maps: maps.join('\n'), key };
}

/** Where a remote is and which variants its page has, as far as this configuration knows. */
function remotePlan({ deployable, remotes, roots }) {
  const manifestUrl = remotes[deployable.remote];
  if (!manifestUrl) return undefined;
  const base = new URL('./', manifestUrl);
  let query = {};
  try {
    const root = roots[deployable.name] ?? path.join(deployable.dir, 'dist');
    query = JSON.parse(fs.readFileSync(path.join(root, fragmentPaths.manifest), 'utf8')).query ?? {};
  } catch {
    // Not built here (deployed elsewhere): pages without query parameters need nothing more.
  }
  return {
    remote: deployable.remote,
    route: deployable.route,
    base,
    upstream: `nativegtm_${deployable.remote}`,
    ...variantMaps(deployable.remote, query),
  };
}

function upstreamBlock(plan) {
  const port = plan.base.port || (plan.base.protocol === 'https:' ? 443 : 80);
  return `
    upstream ${plan.upstream} {
        server ${plan.base.hostname}:${port};
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
${i}    proxy_set_header Host ${quote(plan.base.host)};
${i}    proxy_set_header Accept-Encoding "";
${i}    proxy_set_header Cookie "";
${i}    proxy_pass_request_body off;
${i}    proxy_connect_timeout ${timeoutMs}ms;
${i}    proxy_send_timeout ${timeoutMs}ms;
${i}    proxy_read_timeout ${timeoutMs}ms;
${i}    proxy_redirect off;
${i}    proxy_intercept_errors on;
${i}    error_page 300 301 302 303 304 307 308 400 401 403 404 405 408 410 429 500 502 503 504 =200 /_compose/empty;${
    scheme === 'https'
      ? `
${i}    proxy_ssl_server_name on;
${i}    proxy_ssl_name ${quote(plan.base.hostname)};`
      : ''
  }`;
  return `
${i}location = /_compose/page-head/${plan.remote} {${common}
${i}    proxy_pass ${quote(proxy(fragmentPaths.head))};
${i}    # The head's stylesheet URLs are an SSI echo of the remote's base URL. (Not sub_filter: it would also run
${i}    # over the template's fallback block when the include fails, and garble it.)
${i}    set $${REMOTE_BASE_VARIABLE} ${quote(plan.base.href)};
${i}    ssi on;
${i}    ssi_types text/html;
${i}}

${i}location = /_compose/page-body/${plan.remote} {${common}
${i}    proxy_pass ${quote(proxy(fragmentPaths.body(plan.key)))};
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

/**
 * @param {{ roots?: Record<string, string>, ports?: Record<string, number>, remotesFile?: string,
 *   listenHost?: string, prefix: string, mimeTypes?: string }} options
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
}) {
  const shellDeployable = deployables.find((d) => d.role === 'host');
  const remotesPath = remotesFile ?? path.join(roots.shell ?? path.join(shellDeployable.dir, 'dist'), 'remotes.json');
  const origins = remoteOriginsFromFile(remotesPath);
  let remotes = {};
  try {
    remotes = readRemotes(fs.readFileSync(remotesPath, 'utf8'));
  } catch {
    // No remotes.json: every page falls back to rendering in the browser, which reports the problem.
  }
  const plans = deployables
    .filter((d) => d.role === 'remote')
    .map((deployable) => remotePlan({ deployable, remotes, roots }))
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
  return `# Generated by shared/server/nginx.js: edit remotes.json and regenerate rather than editing this file.
worker_processes 1;
pid ${quote(path.join(prefix, 'nginx.pid'))};
error_log ${quote(path.join(prefix, 'error.log'))} warn;

events {
    worker_connections 256;
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
${upstreams}
${maps}
${servers}
}
`;
}

module.exports = { renderNginxConfig };

if (require.main === module) {
  const arg = (flag) => {
    const index = process.argv.indexOf(flag);
    return index > -1 ? process.argv[index + 1] : undefined;
  };
  const base = Number(arg('--port-base') ?? 3000);
  const ports = Object.fromEntries(deployables.map((d) => [d.name, base + (d.port - 3000)]));
  const out = arg('--out');
  const config = renderNginxConfig({
    ports,
    remotesFile: arg('--remotes') && path.resolve(arg('--remotes')),
    origin: arg('--origin') ?? process.env.SITE_ORIGIN,
    fragmentTimeoutMs: arg('--fragment-timeout-ms') ? Number(arg('--fragment-timeout-ms')) : undefined,
    prefix: path.resolve(arg('--prefix') ?? '/var/lib/nativegtm-nginx'),
  });
  if (out) fs.writeFileSync(out, config);
  else process.stdout.write(config);
}
