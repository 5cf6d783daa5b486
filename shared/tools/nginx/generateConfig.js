// Generates the nginx configuration that serves the site like the built-in server: reads remotes.json and each
// page's query parameters (readPageQueries.js), then renders the text (renderConfig.js). The CSP and the variant
// maps are fixed at generation time: when remotes move or a page changes its query parameters, regenerate
// (`npm run nginx:config`, command.js) and `nginx -s reload`.
const { readPageQueries, readRemotesFile } = require('./readPageQueries');
const { pidFileOf, renderNginxConfig } = require('./renderConfig');

/**
 * @typedef {Omit<Parameters<typeof renderNginxConfig>[0], 'remotes' | 'queries'> & { remotesFile?: string }}
 *   GenerateOptions remotesFile: the remotes.json to read, when not the shell's dist/remotes.json (the collector beside
 *   nginx serves it: give it the same REMOTES_FILE)
 */

/**
 * Reads remotes.json and each page's query parameters (from the remotes' manifests), then renders the configuration.
 * @param {GenerateOptions} options
 * @returns {Promise<{ config: string, warnings: string[] }>}
 */
async function generateNginxConfig(options) {
  const { remotes } = readRemotesFile(options);
  const { queries, warnings } = await readPageQueries({ remotes, roots: options.roots, ports: options.ports });
  return { config: renderNginxConfig({ ...options, remotes, queries }), warnings };
}

module.exports = { generateNginxConfig, renderNginxConfig, readPageQueries, pidFileOf };
