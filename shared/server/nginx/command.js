#!/usr/bin/env node
// `npm run nginx:config -- --remotes <file> --origin <url> --prefix <dir> --port-base <n> --out <file>
//   [--fragment-timeout-ms <n>] [--releases <dir>]`: writes the nginx configuration (to stdout without --out).
// --releases: the release store it serves live releases and previews from (default RELEASES_DIR or releases/).
const fs = require('node:fs');
const path = require('node:path');
const { portsFrom } = require('@nativegtm/contract/ports');
const { generateNginxConfig } = require('./generateConfig');
const { defaultStoreDir } = require('../releases/storeLayout');

const USAGE =
  'usage: npm run nginx:config -- [--remotes <remotes.json>] [--origin <https://…>] [--prefix <dir>] ' +
  '[--port-base <n>] [--out <file>] [--fragment-timeout-ms <n>] [--releases <dir>]';

const OPTIONS = ['--remotes', '--origin', '--prefix', '--port-base', '--out', '--fragment-timeout-ms', '--releases'];

/**
 * The command line's options, checked: every option known and given a value, numbers numeric.
 * @param {string[]} argv the arguments after the script
 * @returns {{ remotesFile?: string, origin?: string, prefix: string, portBase: number, out?: string,
 *   fragmentTimeoutMs?: number, releasesDir: string }}
 */
function parseArgs(argv) {
  /** @type {Record<string, string>} */
  const given = {};
  for (let index = 0; index < argv.length; index += 2) {
    const flag = /** @type {string} */ (argv[index]);
    const value = argv[index + 1];
    if (!OPTIONS.includes(flag)) throw new Error(`unknown option ${JSON.stringify(flag)}`);
    if (value === undefined || value.startsWith('--')) throw new Error(`${flag} needs a value`);
    given[flag] = value;
  }
  /** @param {string} flag */
  const number = (flag) => {
    const text = given[flag];
    if (text === undefined) return undefined;
    const value = Number(text);
    if (!Number.isInteger(value) || value <= 0) throw new Error(`${flag} must be a positive whole number`);
    return value;
  };
  return {
    remotesFile: given['--remotes'] && path.resolve(given['--remotes']),
    origin: given['--origin'],
    prefix: path.resolve(given['--prefix'] ?? '/var/lib/nativegtm-nginx'),
    portBase: number('--port-base') ?? 3000,
    out: given['--out'],
    fragmentTimeoutMs: number('--fragment-timeout-ms'),
    releasesDir: given['--releases'] ? path.resolve(given['--releases']) : defaultStoreDir(),
  };
}

async function main() {
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`nginx:config: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    process.exit(2);
  }
  const { config, warnings } = await generateNginxConfig({
    ports: portsFrom(options.portBase),
    remotesFile: options.remotesFile,
    origin: options.origin ?? process.env.SITE_ORIGIN,
    fragmentTimeoutMs: options.fragmentTimeoutMs,
    prefix: options.prefix,
    releasesDir: options.releasesDir,
  });
  for (const warning of warnings) console.warn(`warning: ${warning}`);
  if (options.out) fs.writeFileSync(options.out, config);
  else process.stdout.write(config);
}

module.exports = { parseArgs };

if (require.main === module) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  });
}
