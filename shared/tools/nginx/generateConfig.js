// Generates the nginx configuration that serves the site like the built-in server: reads remotes.json and each
// page's query parameters (readPageQueries.js), then renders the text (renderConfig.js). The CSP and the variant
// maps are fixed at generation time: when remotes move or a page changes its query parameters, regenerate
// (`npm run nginx:config`, command.js) and `nginx -s reload`.
const fs = require('node:fs');
const path = require('node:path');
const { PLAN_FILE } = require('@nativegtm/contract/documentFiles');
const { readPageQueries, readRemotesFile } = require('./readPageQueries');
const { documentsPlan, pidFileOf, renderNginxConfig } = require('./renderConfig');

/** Where Debian's libnginx-mod-http-brotli-static puts the module: its .br files are sent when it is there. */
const DEBIAN_BROTLI_MODULE = '/usr/lib/nginx/modules/ngx_http_brotli_static_module.so';

/**
 * @typedef {Omit<Parameters<typeof renderNginxConfig>[0], 'remotes' | 'queries'> & { remotesFile?: string }}
 *   GenerateOptions remotesFile: the remotes.json to read, when not the shell's dist/remotes.json (the collector beside
 *   nginx serves it: give it the same REMOTES_FILE)
 */

/**
 * Reads remotes.json and each page's query parameters (from the remotes' manifests), then renders the configuration.
 * @param {GenerateOptions} options
 * @returns {Promise<{ config: string, warnings: string[], plan: import('@nativegtm/contract/documentFiles').DocumentsPlan }>}
 */
async function generateNginxConfig(options) {
  const { remotes } = readRemotesFile(options);
  const { queries, warnings } = await readPageQueries({ remotes, roots: options.roots, ports: options.ports });
  const brotliModule = options.brotliModule ?? (fs.existsSync(DEBIAN_BROTLI_MODULE) ? DEBIAN_BROTLI_MODULE : undefined);
  return {
    config: renderNginxConfig({ ...options, brotliModule, remotes, queries }),
    warnings,
    // What the collector beside it composes the documents for everyone with (writeDocumentsPlan).
    plan: documentsPlan({ ...options, remotes }),
  };
}

/**
 * Writes the plan nginx's collector composes the documents with into the documents folder (renamed into place: the
 * collector never reads half of one).
 * @param {string} documentsDir
 * @param {import('@nativegtm/contract/documentFiles').DocumentsPlan} plan generateNginxConfig's
 */
function writeDocumentsPlan(documentsDir, plan) {
  fs.mkdirSync(documentsDir, { recursive: true });
  const file = path.join(documentsDir, PLAN_FILE);
  fs.writeFileSync(`${file}.tmp`, `${JSON.stringify(plan, null, 2)}\n`);
  fs.renameSync(`${file}.tmp`, file);
}

module.exports = { generateNginxConfig, renderNginxConfig, readPageQueries, pidFileOf, writeDocumentsPlan };
