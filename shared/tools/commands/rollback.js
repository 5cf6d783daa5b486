// `npm run rollback -- <remote>`: the release that was live before the current one is live again, within a second,
// with no build and no gate (it was live already).
const { parseReleaseCommandLine, runReleaseCommand, releaseStoreOf, TO_OPTION } = require('../releases/commandLine');

const USAGE = 'npm run rollback -- <remote> [--to <deploy API URL>]';

runReleaseCommand(USAGE, async () => {
  const {
    remote,
    options,
    store: local,
  } = parseReleaseCommandLine(process.argv.slice(2), {
    usage: USAGE,
    description: 'Makes the release that was live before the current one live again (no build, no gate).',
    min: 1,
    options: TO_OPTION,
  });
  const store = releaseStoreOf(remote, local, options.to);
  const { id, from } = await store.rollback();
  console.log(`${remote}: release ${id} is live again (was ${from}).`);
});
