// `npm run store -- migrate | copy [--from <folder>] | grant-deploy-api <role>`: the store on PostgreSQL (DATABASE_URL, with its files in
// RELEASES_BUCKET). migrate brings the database to this version's schema: run it before the nodes of a new version
// start (docs/many-nodes.md). copy puts a folder store (RELEASES_DIR, or --from) into it, once, when a site moves to
// many nodes; run again, it finishes a copy cut off half-way and otherwise changes nothing. grant-deploy-api gives the
// deploy API's database role what it may do, and nothing more (docs/releasing-from-ci.md).
const { remoteNames } = require('@nativegtm/contract/remotes');
const { configOrExit } = require('@nativegtm/server/config');
const { readCommandLine, Refusal, UsageError } = require('@nativegtm/server/commandLine');
const { storeDir } = require('@nativegtm/server/storeDir');
const { migrateStore } = require('@nativegtm/store/postgres/migrate');
const { grantDeployApi } = require('@nativegtm/store/postgres/deployRole');
const { openPostgresStore } = require('@nativegtm/store/postgres/postgresStore');
const { copyFolderRemote } = require('@nativegtm/store/postgres/copyFolderStore');
const { runReleaseCommand } = require('../releases/commandLine');
const { toolsConfig } = require('../config');

const USAGE = 'npm run store -- migrate | copy [--from <folder>] | grant-deploy-api <role>';

runReleaseCommand(USAGE, async () => {
  const { positionals, values } = readCommandLine(process.argv.slice(2), {
    usage: USAGE,
    description:
      "migrate: brings the database of DATABASE_URL to this version's schema. copy: copies the folder store " +
      '(RELEASES_DIR, or --from) into the database and RELEASES_BUCKET; safe to run again. grant-deploy-api: gives ' +
      "the deploy API's role the store's tables, the tokens and the field data to read, and the audit to append to " +
      'only.',
    min: 1,
    max: 2,
    options: { from: { type: 'string' } },
  });
  const [action, role] = positionals;
  if (action !== 'migrate' && action !== 'copy' && action !== 'grant-deploy-api') {
    throw new UsageError(`unknown action "${action}" (migrate, copy or grant-deploy-api)`);
  }
  if ((action === 'grant-deploy-api') !== (role !== undefined)) {
    throw new UsageError(role === undefined ? 'grant-deploy-api names the role' : `unexpected argument "${role}"`);
  }
  const config = configOrExit(toolsConfig);
  if (!config.DATABASE_URL || !config.RELEASES_BUCKET) {
    throw new Refusal('the store is a folder: set DATABASE_URL and RELEASES_BUCKET to the store on PostgreSQL');
  }
  if (action === 'grant-deploy-api') {
    await grantDeployApi(config.DATABASE_URL, /** @type {string} */ (role));
    console.log(`${role} may now change the store and append to its audit, and read the deploy tokens`);
    return;
  }
  if (action === 'migrate') {
    const ran = await migrateStore(config.DATABASE_URL);
    console.log(ran.length ? `migrated: ${ran.join(', ')}` : "the database is at this version's schema already");
    return;
  }
  const from = storeDir(values.from ?? config.RELEASES_DIR);
  const store = openPostgresStore({ databaseUrl: config.DATABASE_URL, bucketUrl: config.RELEASES_BUCKET });
  for (const remote of remoteNames) {
    const copied = await copyFolderRemote({ dir: from, remote, backend: store.backend(remote) });
    console.log(
      `${remote}: copied ${copied.releases} release(s), ${copied.gates} gate result(s), ` +
        `${copied.history} change(s) of what is live, ${copied.canaries} ended canar${copied.canaries === 1 ? 'y' : 'ies'}`,
    );
  }
  await store.close();
});
