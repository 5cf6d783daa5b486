#!/usr/bin/env node
// `npm start`: build what is not built, then serve the composed site on http://localhost:3000 (the remotes on the ports of shared/contract/pages.js).
const { deployables } = require('../deployables');
const { buildIfNeeded } = require('../buildIfNeeded');
const { startSite } = require('../startSite');

async function main() {
  buildIfNeeded(deployables);
  const site = await startSite(deployables, {
    origin: process.env.SITE_ORIGIN || undefined,
    fragmentTimeoutMs: process.env.FRAGMENT_TIMEOUT_MS ? Number(process.env.FRAGMENT_TIMEOUT_MS) : undefined,
  });
  for (const { deployable, port } of site.servers) {
    console.log(`  ${deployable.name.padEnd(16)} http://localhost:${port}`);
  }
  console.log('\nNativeGTM is running on http://localhost:3000 (Ctrl+C to stop)');

  /** @param {NodeJS.Signals} signal */
  const shutdown = async (signal) => {
    console.log(`\n${signal} received, stopping the servers…`);
    await site.stop();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((error) => {
  console.error(`\nCould not start the site: ${error.message}`);
  process.exit(1);
});
