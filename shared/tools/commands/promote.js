// `npm run promote -- <remote> <id> [--skip-gate]`: the gate (the release composed with the live site, checked in
// headless Chromium), then the release is live on every server reading this store within a second.
const { parseReleaseCommandLine, runReleaseCommand, releaseStoreOf, TO_OPTION } = require('../releases/commandLine');
const { gateFor } = require('../releases/gate/gateFor');

const USAGE = 'npm run promote -- <remote> <release id> [--skip-gate] [--to <deploy API URL>]';

runReleaseCommand(USAGE, async () => {
  const {
    remote,
    args,
    options,
    store: local,
    storeDir,
    config,
  } = parseReleaseCommandLine(process.argv.slice(2), {
    usage: USAGE,
    description: 'Gates the release (composed with the live site, in headless Chromium), then makes it live.',
    min: 2,
    options: { 'skip-gate': { type: 'boolean' }, ...TO_OPTION },
  });
  const store = releaseStoreOf(remote, local, options.to);
  const id = /** @type {string} */ (args[0]);
  const skip = options['skip-gate'] === true;
  if (skip) {
    console.error(
      `WARNING: --skip-gate: release ${id} of ${remote} goes live WITHOUT being checked. Nobody has seen it ` +
        'hydrate, navigate or load its shared singletons in the live site; a page that throws in the browser or ' +
        'needs a newer React reaches every visitor. Roll back with: npm run rollback -- ' +
        remote,
    );
  } else {
    console.error(`Gating release ${id} of ${remote} (composed with the live site, in headless Chromium)…`);
  }
  const result = await store.promote(id, {
    gate: gateFor({ skip, storeDir, remote, chromiumPath: config.CHROME_PATH }),
  });
  for (const check of result.gate.checks) console.error(`  ✓ ${check.name}`);
  console.log(
    result.changed
      ? `${remote}: release ${id} is live${result.from ? ` (was ${result.from}; npm run rollback -- ${remote} undoes it)` : ''}.`
      : `${remote}: release ${id} was already live.`,
  );
});
