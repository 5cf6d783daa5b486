// `npm run preview -- <remote> <id>`: the URL that shows the running site with that release in place of the live
// one, in the browser that opens it only (a cookie; /_preview/end ends it). The last line printed is the URL.
const { previewPath, PREVIEW_END_PATH } = require('@nativegtm/contract/releases');
const { parseReleaseCommandLine, runReleaseCommand } = require('../releases/commandLine');
const { usableRelease } = require('../releases/operations');

const USAGE = 'npm run preview -- <remote> <release id>';

runReleaseCommand(USAGE, async () => {
  const { remote, args, layout, config } = parseReleaseCommandLine(process.argv.slice(2), {
    usage: USAGE,
    description: 'Prints the URL that shows the running site with this release, in the browser that opens it only.',
    min: 2,
  });
  const id = /** @type {string} */ (args[0]);
  usableRelease(layout, remote, id);
  // The site as visitors reach it (SITE_ORIGIN), or npm start's shell on this machine.
  const origin = config.SITE_ORIGIN ?? `http://localhost:${config.PORT_BASE}`;
  console.log(
    `Open this in your browser to see the site with release ${id} of ${remote} (that browser only, for an hour; ` +
      `${origin}${PREVIEW_END_PATH} ends it):`,
  );
  console.log(`${origin}${previewPath(remote, id)}`);
});
