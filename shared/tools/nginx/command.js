#!/usr/bin/env node
// `npm run nginx:config -- [options]`: writes the nginx configuration (to stdout without --out). --releases: the
// release store it serves live releases and previews from (default RELEASES_DIR or releases/); --origin: the public
// origin (default SITE_ORIGIN). COLLECTOR_PORT, RUM_SAMPLE_RATE and OVERRIDE_ORIGINS are read from the environment, as
// the servers read them. --documents: where the collector beside nginx composes the documents for everyone (its
// DOCUMENTS_DIR; <prefix>/documents by default): the plan it composes them with is written there. The repository's
// command-line convention (@nativegtm/server/commandLine).
const fs = require('node:fs');
const path = require('node:path');
const { portsFrom, SHELL_PORT } = require('@nativegtm/contract/ports');
const { readCommandLine, runCommand, wholeNumberOption } = require('@nativegtm/server/commandLine');
const { configOrExit } = require('@nativegtm/server/config');
const { storeDir } = require('@nativegtm/server/storeDir');
const { toolsConfig } = require('../config');
const { generateNginxConfig, writeDocumentsPlan } = require('./generateConfig');
const { pidFileOf } = require('./renderConfig');
const { registerNginx } = require('@nativegtm/server/nginxReload');

const USAGE =
  'npm run nginx:config -- [--remotes <remotes.json>] [--origin <https://…>] [--prefix <dir>] ' +
  '[--port-base <n>] [--out <file>] [--fragment-timeout-ms <n>] [--releases <dir>]';

const OPTIONS = /** @type {const} */ ({
  remotes: { type: 'string' },
  origin: { type: 'string' },
  prefix: { type: 'string' },
  'port-base': { type: 'string' },
  out: { type: 'string' },
  'fragment-timeout-ms': { type: 'string' },
  releases: { type: 'string' },
  documents: { type: 'string' },
});

/**
 * The command line's options, checked: every option known and given a value, numbers whole; a UsageError otherwise.
 * @param {string[]} argv the arguments after the script
 * @param {{ RELEASES_DIR?: string, SITE_ORIGIN?: string, COLLECTOR_PORT?: number, RUM_SAMPLE_RATE?: number,
 *   OVERRIDE_ORIGINS?: readonly import('@nativegtm/contract/overrides').OriginPattern[] }} [config]
 *   the environment's defaults (toolsConfig)
 */
function parseArgs(argv, config = {}) {
  const { values } = readCommandLine(argv, { usage: USAGE, options: OPTIONS });
  const prefix = path.resolve(values.prefix ?? '/var/lib/nativegtm-nginx');
  return {
    remotesFile: values.remotes && path.resolve(values.remotes),
    origin: values.origin ?? config.SITE_ORIGIN,
    prefix,
    documentsDir: path.resolve(values.documents ?? path.join(prefix, 'documents')),
    portBase: wholeNumberOption(values['port-base'], '--port-base', { min: 1, max: 65535 }) ?? SHELL_PORT,
    out: values.out,
    fragmentTimeoutMs: wholeNumberOption(values['fragment-timeout-ms'], '--fragment-timeout-ms', { min: 1 }),
    releasesDir: storeDir(values.releases ?? config.RELEASES_DIR),
    collectorPort: config.COLLECTOR_PORT,
    sampleRate: config.RUM_SAMPLE_RATE,
    overrideOrigins: config.OVERRIDE_ORIGINS,
  };
}

async function main() {
  const options = parseArgs(process.argv.slice(2), configOrExit(toolsConfig));
  const { config, warnings, plan } = await generateNginxConfig({
    ports: portsFrom(options.portBase),
    remotesFile: options.remotesFile,
    origin: options.origin,
    fragmentTimeoutMs: options.fragmentTimeoutMs,
    prefix: options.prefix,
    releasesDir: options.releasesDir,
    collectorPort: options.collectorPort,
    sampleRate: options.sampleRate,
    overrideOrigins: options.overrideOrigins,
    documentsDir: options.documentsDir,
  });
  for (const warning of warnings) console.warn(`warning: ${warning}`);
  try {
    writeDocumentsPlan(options.documentsDir, plan);
  } catch (error) {
    console.warn(
      `warning: no plan written in ${options.documentsDir} (${/** @type {Error} */ (error).message}): nginx composes ` +
        'every document per request',
    );
  }
  // The canary command reloads this nginx after each change of a canary (@nativegtm/server/nginxReload.js).
  registerNginx(options.releasesDir, pidFileOf(options.prefix));
  if (options.out) fs.writeFileSync(options.out, config);
  else process.stdout.write(config);
}

module.exports = { parseArgs };

if (require.main === module) runCommand(USAGE, main);
