// `npm run preview -- <remote> <id> [--allow-failed]`: the URL that shows the running site with that release in place
// of the live one, in the browser that opens it only (a cookie; /_preview/end ends it). The last line printed is the
// URL. A release whose gate failed is refused by both servers unless the link carries a mark, which --allow-failed
// writes into the store.
const { previewPath, PREVIEW_END_PATH } = require('@nativegtm/contract/releases');
const { parseReleaseCommandLine, runReleaseCommand, releaseStoreOf, TO_OPTION } = require('../releases/commandLine');

const USAGE = 'npm run preview -- <remote> <release id> [--allow-failed] [--to <deploy API URL>]';

runReleaseCommand(USAGE, async () => {
  const {
    remote,
    args,
    options,
    store: local,
    config,
  } = parseReleaseCommandLine(process.argv.slice(2), {
    usage: USAGE,
    description:
      'Prints the URL that shows the running site with this release, in the browser that opens it only. ' +
      '--allow-failed: a URL that shows it although its gate failed.',
    min: 2,
    options: { 'allow-failed': { type: 'boolean' }, ...TO_OPTION },
  });
  const store = releaseStoreOf(remote, local, options.to);
  const id = /** @type {string} */ (args[0]);
  const { failed, mark } = await store.preview(id, { allowFailed: options['allow-failed'] === true });
  if (failed) console.error(`WARNING: release ${id} of ${remote} FAILED the gate; its preview says so.`);
  // The site as visitors reach it (SITE_ORIGIN), or npm start's shell on this machine.
  const origin = config.SITE_ORIGIN ?? `http://localhost:${config.PORT_BASE}`;
  console.log(
    `Open this in your browser to see the site with release ${id} of ${remote} (that browser only, for an hour; ` +
      `${origin}${PREVIEW_END_PATH} ends it):`,
  );
  console.log(`${origin}${previewPath(remote, id, mark)}`);
});
