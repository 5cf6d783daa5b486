// Who makes a change of the store, as its records, its history and its audit name them.
//
// A command run where the store is names the OS user and the host (`user@host`): only the operator's and CI's own
// accounts run there, so this names a person or a pipeline, and proves nothing against someone who can write the
// store anyway. The deploy API names the credential a request proved: a token (its id and team) or a CI job's OIDC
// identity (its subject and repository), and the network the request came from.
const os = require('node:os');

/**
 * Who makes a change. `by` is the one line records and the history keep; the rest goes to the audit whole.
 * @typedef {object} Actor
 * @property {string} by e.g. `ci@build-7`, `token 3f9a2c1d (team jobs)`, `oidc repo:acme/site:ref:refs/heads/main`
 * @property {'machine' | 'token' | 'oidc'} kind
 * @property {string} [network] the client's address, as the deploy API read it through its trusted proxies
 * @property {string} [token] a token's id (never the token)
 * @property {string} [team] the team a token was made for
 * @property {string} [subject] an OIDC token's `sub`
 * @property {string} [repository] an OIDC token's `repository` (GitHub) or `project_path` (GitLab)
 * @property {string} [commit] an OIDC token's `sha`: the commit its job ran on
 */

/** The user and host running this process, as `user@host`. */
function thisActor() {
  let user;
  try {
    user = os.userInfo().username;
  } catch {
    // A uid with no entry in the password database (some containers): its number is all there is.
    user = `uid ${process.getuid?.() ?? '?'}`;
  }
  return `${user}@${os.hostname()}`;
}

/** @returns {Actor} a command run where the store is */
const machineActor = () => ({ by: thisActor(), kind: 'machine' });

/**
 * Whether a value read back from an audit is an actor this version writes.
 * @param {any} value
 * @returns {value is Actor}
 */
const isActor = (value) =>
  typeof value?.by === 'string' &&
  ['machine', 'token', 'oidc'].includes(value.kind) &&
  ['network', 'token', 'team', 'subject', 'repository', 'commit'].every(
    (key) => value[key] === undefined || typeof value[key] === 'string',
  );

module.exports = { thisActor, machineActor, isActor };
