#!/usr/bin/env node
// `npm run deploy-tokens -- create --remote <remote> --can <actions> --team <name> [--expires 90d]`, `… list`,
// `… revoke <id>`: the operator's deploy tokens, kept beside the store (RELEASES_DIR, or DATABASE_URL). A token is
// printed once, when it is made; only its hash is kept. A revocation counts from the API's next request.
const { DEPLOY_ACTIONS, parseDeployActions } = require('@nativegtm/contract/deployApi');
const { isRemoteName, remoteNames } = require('@nativegtm/contract/remotes');
const { readCommandLine, runCommand, UsageError } = require('@nativegtm/server/commandLine');
const { configOrExit } = require('@nativegtm/server/config');
const { openDatabase } = require('@nativegtm/store/postgres/database');
const { storeDir } = require('@nativegtm/server/storeDir');
const { StoreRefusal } = require('@nativegtm/store/storeRefusal');
const { thisActor } = require('@nativegtm/store/actor');
const { parseDuration } = require('@nativegtm/tools/duration');
const { deployConfig } = require('../config');
const { makeToken } = require('../tokens/deployTokens');
const { folderTokenStore, postgresTokenStore } = require('../tokens/tokenStore');

const USAGE =
  'npm run deploy-tokens -- create --remote <remote> --can <action,…> --team <name> [--expires <90d>] | list | revoke <id>';
const DESCRIPTION = `Makes, lists and revokes the deploy API's tokens. Actions: ${DEPLOY_ACTIONS.join(', ')}.`;
const DEFAULT_EXPIRY = '90d';
const TEAM = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

runCommand(
  USAGE,
  async () => {
    const { values, positionals } = readCommandLine(process.argv.slice(2), {
      usage: USAGE,
      description: DESCRIPTION,
      options: {
        remote: { type: 'string' },
        can: { type: 'string' },
        team: { type: 'string' },
        expires: { type: 'string' },
      },
      min: 1,
      max: 2,
    });
    const [verb, id] = positionals;
    const config = configOrExit(deployConfig);
    const tokens =
      config.DATABASE_URL && config.RELEASES_BUCKET
        ? postgresTokenStore(openDatabase(config.DATABASE_URL), 'the database (deploy_tokens)')
        : folderTokenStore(storeDir(config.RELEASES_DIR));
    try {
      if (verb === 'create' && id === undefined) await create(tokens, values);
      else if (verb === 'list' && id === undefined) await list(tokens);
      else if (verb === 'revoke' && id !== undefined) {
        const revoked = await tokens.revoke(id, new Date());
        console.log(`token ${revoked.id} (${revoked.team}, ${revoked.remote}) revoked at ${revoked.revoked}.`);
      } else throw new UsageError(`"${positionals.join(' ')}" is not create, list or revoke <id>`);
    } finally {
      await tokens.close();
    }
  },
  { isRefusal: (error) => error instanceof StoreRefusal },
);

/**
 * @param {import('../tokens/tokenStore').TokenStore} tokens
 * @param {{ remote?: string, can?: string, team?: string, expires?: string }} values
 */
async function create(tokens, values) {
  const { remote, can, team, expires = DEFAULT_EXPIRY } = values;
  if (remote === undefined || !isRemoteName(remote)) {
    throw new UsageError(`--remote must be one of ${remoteNames.join(', ')}`);
  }
  if (can === undefined) throw new UsageError(`--can names the actions (${DEPLOY_ACTIONS.join(', ')})`);
  let actions;
  try {
    actions = parseDeployActions(can);
  } catch (error) {
    throw new UsageError(`--can: ${/** @type {Error} */ (error).message}`);
  }
  if (team === undefined || !TEAM.test(team))
    throw new UsageError('--team names who it is for (letters, digits, . _ -)');
  const lifetime = parseDuration(expires);
  if (lifetime === undefined) throw new UsageError(`--expires is a span like 30d or 12h, not "${expires}"`);
  const { token, record } = makeToken({
    remote,
    actions,
    team,
    expires: new Date(Date.now() + lifetime),
    createdBy: thisActor(),
  });
  await tokens.add(record);
  console.error(
    `token ${record.id} for team ${team}: ${actions.join(', ')} on ${remote}, until ${record.expires}. ` +
      'It is shown this once; keep it in your CI as NATIVEGTM_DEPLOY_TOKEN.',
  );
  console.log(token);
}

/** @param {import('../tokens/tokenStore').TokenStore} tokens */
async function list(tokens) {
  const now = Date.now();
  const all = await tokens.list();
  if (all.length === 0) {
    console.log(`no tokens in ${tokens.where}`);
    return;
  }
  for (const record of all) {
    const state = record.revoked
      ? `revoked ${record.revoked}`
      : Date.parse(record.expires) <= now
        ? `expired ${record.expires}`
        : `until ${record.expires}`;
    console.log(
      `${record.id}  ${record.team.padEnd(12)}  ${record.remote.padEnd(12)}  ${record.actions.join(',')}  ${state}` +
        `  (made ${record.created} by ${record.createdBy})`,
    );
  }
}
