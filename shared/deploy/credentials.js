// Who a request is, from its credential: `Authorization: Bearer <token>`, a deploy token (tokens/) or a CI job's OIDC
// identity token (oidc.js), and what it may do: one remote's actions, never another's. Reading a remote's releases
// needs a credential of that remote; every other action must be named by it.
const { checkToken, parseToken } = require('./tokens/deployTokens');

/** @typedef {import('@nativegtm/contract/deployApi').DeployAction} DeployAction */
/** @typedef {import('@nativegtm/store/actor').Actor} Actor */

/**
 * A credential that was proved.
 * @typedef {object} Principal
 * @property {Actor} actor who the audit says made the change (the request's address is added per request)
 * @property {string} name how a refusal names it: `token 3f9a2c1d0b7e` or `the OIDC identity repo:acme/site:…`
 * @property {(remote: string, action: DeployAction | 'read') => boolean} may
 * @property {(remote: string) => DeployAction[]} actionsOn what it may do to `remote`, for a refusal's line
 */

/** The bearer credential of a request, or undefined (none, or not a bearer one). */
const BEARER = /^Bearer ([!-~]{1,8192})$/;

/**
 * @param {string | undefined} header the request's Authorization header
 * @returns {string | undefined}
 */
function bearerOf(header) {
  return header === undefined ? undefined : BEARER.exec(header)?.[1];
}

/**
 * The principal of a deploy token, or why it is not one.
 * @param {string} text
 * @param {import('./tokens/tokenStore').TokenStore} tokens
 * @param {Date} now
 * @returns {Promise<{ principal: Principal } | { problem: string }>}
 */
async function tokenPrincipal(text, tokens, now) {
  const id = parseToken(text)?.id;
  const record = id === undefined ? undefined : await tokens.find(id);
  const checked = checkToken(text, () => record, now);
  if ('problem' in checked) return checked;
  const { record: proved } = checked;
  return {
    principal: {
      actor: { by: `token ${proved.id} (team ${proved.team})`, kind: 'token', token: proved.id, team: proved.team },
      name: `token ${proved.id}`,
      may: (remote, action) => remote === proved.remote && (action === 'read' || proved.actions.includes(action)),
      actionsOn: (remote) => (remote === proved.remote ? proved.actions : []),
    },
  };
}

module.exports = { bearerOf, tokenPrincipal };
