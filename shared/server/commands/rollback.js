// `npm run rollback -- <remote>`: the release that was live before the current one is live again, within a second,
// with no build and no gate (it was live already).
const { parseCommandLine, runCommand } = require('../releases/commandLine');
const { rollback } = require('../releases/operations');

runCommand(async () => {
  const { remote, layout } = parseCommandLine(process.argv.slice(2), {
    usage: 'npm run rollback -- <remote>',
    positional: 1,
  });
  const { id, from } = await rollback(layout, remote);
  console.log(`${remote}: release ${id} is live again (was ${from}).`);
});
