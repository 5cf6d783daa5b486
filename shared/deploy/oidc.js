// Trusted publishing: a CI job proves who it is with its OIDC identity token (GitHub Actions, GitLab), and the operator's
// trust file (DEPLOY_TRUST_FILE) says which jobs may do what. No long-lived secret is kept anywhere.
//
//   { "issuers": [ { "issuer": "https://token.actions.githubusercontent.com",
//                    "audience": "https://deploy.nativegtm.example",
//                    "rules": [ { "claims": { "repository_id": "74", "ref": "refs/heads/main" },
//                                 "remote": "jobs", "can": ["publish", "promote"] } ] } ] }
//
// A token is verified with jose (ESM-only, loaded once with a dynamic import) against its issuer's published keys
// (jwks_uri from its /.well-known/openid-configuration, or `jwks` given): signature, issuer, audience, expiry. jose
// keeps the keys and fetches them again when a token names a key it does not have (the issuer rotated its keys), at
// most once per `cooldownMs`. A rule grants its remote and actions when every claim it names equals the token's. An
// id may be given as a number, as the providers' APIs print them: rules on ids (GitHub's repository_id and
// repository_owner_id, GitLab's project_id and namespace_id) keep holding for a repository renamed, and stop holding
// for another one made under an old name, which rules on names do not. Only a loopback issuer may be plain http (a
// test's).
const { isRemoteName } = require('@nativegtm/contract/remotes');
const { isSecureOrLoopback, parseDeployActions } = require('@nativegtm/contract/deployApi');

/** @typedef {import('@nativegtm/contract/deployApi').DeployAction} DeployAction */
/** @typedef {import('./credentials').Principal} Principal */
/**
 * @typedef {{ claims: Record<string, string>, remote: string, can: DeployAction[] }} TrustRule
 * @typedef {{ issuer: string, audience: string, jwks?: string, rules: TrustRule[] }} TrustedIssuer
 */

/** The signing algorithms taken: GitHub's and GitLab's (RS256), and the elliptic-curve ones. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'PS256'];
/** How far a token's times may be off this machine's clock. */
const CLOCK_TOLERANCE_S = 30;
/** The longest token the API reads (a JWT of a few claims is about 1 KB). */
const MAX_JWT_LENGTH = 8192;

/**
 * A URL an issuer is at, or its keys: https, or http on loopback only.
 * @param {unknown} text
 * @param {string} what for the message
 */
function trustedUrl(text, what) {
  if (typeof text !== 'string') throw new Error(`${what} must be a URL`);
  let url;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`${what} "${text}" is not a URL`);
  }
  if (!isSecureOrLoopback(url)) {
    throw new Error(`${what} "${text}" must be https (plain http only on loopback)`);
  }
  return text;
}

/**
 * The trust file's issuers, checked: throws naming the first thing wrong.
 * @param {string} text the file's JSON
 * @returns {TrustedIssuer[]}
 */
function parseTrust(text) {
  /** @type {any} */
  const parsed = JSON.parse(text);
  if (!Array.isArray(parsed?.issuers)) throw new Error('it must be { "issuers": [ … ] }');
  /** Where each issuer was named first. @type {Map<string, string>} */
  const named = new Map();
  return parsed.issuers.map((/** @type {any} */ entry, /** @type {number} */ index) => {
    const where = `issuers[${index}]`;
    const issuer = trustedUrl(entry?.issuer, `${where}.issuer`);
    // A token is checked against the first entry of its issuer only: a second one's rules and audience would never
    // apply, silently.
    const first = named.get(issuer);
    if (first) throw new Error(`${where}.issuer "${issuer}" is ${first}'s too: put all its rules in one entry`);
    named.set(issuer, where);
    if (typeof entry.audience !== 'string' || entry.audience === '') throw new Error(`${where}.audience is missing`);
    const jwks = entry.jwks === undefined ? undefined : trustedUrl(entry.jwks, `${where}.jwks`);
    if (!Array.isArray(entry.rules) || entry.rules.length === 0) throw new Error(`${where}.rules is empty`);
    const rules = entry.rules.map((/** @type {any} */ rule, /** @type {number} */ at) => {
      const here = `${where}.rules[${at}]`;
      const given = rule?.claims;
      if (
        typeof given !== 'object' ||
        given === null ||
        Object.keys(given).length === 0 ||
        !Object.values(given).every((value) => (typeof value === 'string' && value !== '') || isWholeNumber(value))
      ) {
        throw new Error(`${here}.claims must name at least one claim and its value (a string, or an id's number)`);
      }
      /** @type {Record<string, string>} */
      const claims = Object.fromEntries(Object.entries(given).map(([name, value]) => [name, String(value)]));
      // GitLab's ref is the short name, the same for a branch and a tag: a protected tag named `main` would pass a rule
      // meant for the main branch. GitHub's is whole (refs/heads/main), its kind in it.
      if (claims.ref !== undefined && !claims.ref.startsWith('refs/') && claims.ref_type === undefined) {
        throw new Error(
          `${here}.claims names ref "${claims.ref}" but not ref_type: a branch and a tag can both be "${claims.ref}"; ` +
            'add "ref_type": "branch" (or "tag")',
        );
      }
      if (!isRemoteName(rule.remote)) throw new Error(`${here}.remote "${rule.remote}" is not a remote`);
      if (!Array.isArray(rule.can)) throw new Error(`${here}.can must list actions`);
      return { claims, remote: rule.remote, can: parseDeployActions(rule.can.join(',')) };
    });
    return { issuer, audience: entry.audience, jwks, rules };
  });
}

/**
 * Whether a value is a whole number, as a provider's API gives a repository's or a project's id.
 * @param {unknown} value
 * @returns {value is number}
 */
const isWholeNumber = (value) => Number.isSafeInteger(value) && /** @type {number} */ (value) >= 0;

/**
 * A token's claim as a rule compares it: a string as it is, an id an issuer writes as a number as its digits
 * (the trust file's ids are kept so too); nothing else equals a rule's value.
 * @param {unknown} value
 */
const claimText = (value) => (typeof value === 'string' ? value : isWholeNumber(value) ? String(value) : undefined);

/**
 * Whether a text is shaped as a JWT (three base64url parts), before anything is verified.
 * @param {string} text
 */
const looksLikeJwt = (text) => text.length <= MAX_JWT_LENGTH && /^[\w-]+\.[\w-]+\.[\w-]+$/.test(text);

/**
 * A verifier of CI identity tokens for the trusted issuers.
 * @param {TrustedIssuer[]} issuers
 * @param {{ cooldownMs?: number, fetchTimeoutMs?: number }} [options] cooldownMs: the least time between two fetches of
 *   an issuer's keys (30 s); fetchTimeoutMs: how long a fetch of them may take (5 s)
 */
function oidcVerifier(issuers, { cooldownMs = 30_000, fetchTimeoutMs = 5000 } = {}) {
  /** @type {Promise<typeof import('jose')> | undefined} */
  let jose;
  /** @type {Map<string, Promise<ReturnType<typeof import('jose').createRemoteJWKSet>>>} */
  const keySets = new Map();

  /**
   * The issuer's key set: its jwks_uri from its discovery document unless given, fetched once and kept.
   * @param {TrustedIssuer} trusted
   */
  function keysOf(trusted) {
    let keys = keySets.get(trusted.issuer);
    if (!keys) {
      keys = (async () => {
        const { createRemoteJWKSet } = await (jose ??= import('jose'));
        let uri = trusted.jwks;
        if (!uri) {
          const discovery = `${trusted.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
          const response = await fetch(discovery, { signal: AbortSignal.timeout(fetchTimeoutMs) });
          /** @type {any} */
          const body = await response.json().catch(() => undefined);
          if (!response.ok || typeof body?.jwks_uri !== 'string') {
            throw new Error(`the issuer's discovery document (${discovery}) names no jwks_uri`);
          }
          uri = trustedUrl(body.jwks_uri, "the issuer's jwks_uri");
        }
        return createRemoteJWKSet(new URL(uri), {
          cooldownDuration: cooldownMs,
          timeoutDuration: fetchTimeoutMs,
        });
      })();
      // A failed discovery is tried again at the next token, not remembered.
      keys.catch(() => keySets.delete(trusted.issuer));
      keySets.set(trusted.issuer, keys);
    }
    return keys;
  }

  /**
   * The principal a token proves, or why it proves none.
   * @param {string} token
   * @param {Date} now
   * @returns {Promise<{ principal: Principal } | { problem: string }>}
   */
  async function verify(token, now) {
    const { decodeJwt, jwtVerify, errors } = await (jose ??= import('jose'));
    /** @type {string | undefined} */
    let claimedIssuer;
    try {
      claimedIssuer = decodeJwt(token).iss;
    } catch {
      return { problem: 'the credential is neither a deploy token nor a JWT' };
    }
    const trusted = issuers.find((candidate) => candidate.issuer === claimedIssuer);
    if (!trusted) return { problem: `the OIDC issuer ${JSON.stringify(String(claimedIssuer))} is not trusted here` };
    /** @type {Record<string, unknown>} */
    let claims;
    try {
      const keys = await keysOf(trusted);
      ({ payload: claims } = await jwtVerify(token, keys, {
        issuer: trusted.issuer,
        audience: trusted.audience,
        algorithms: ALGORITHMS,
        clockTolerance: CLOCK_TOLERANCE_S,
        currentDate: now,
        requiredClaims: ['sub', 'exp'],
      }));
    } catch (error) {
      if (error instanceof errors.JWTExpired) return { problem: 'the OIDC token has expired' };
      if (error instanceof errors.JWTClaimValidationFailed) {
        return { problem: `the OIDC token's ${error.claim} claim is not what this API takes` };
      }
      if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JWKSNoMatchingKey) {
        return { problem: "the OIDC token's signature does not verify with its issuer's keys" };
      }
      return { problem: `the OIDC token cannot be verified: ${/** @type {Error} */ (error).message}` };
    }
    const grants = trusted.rules.filter((rule) =>
      Object.entries(rule.claims).every(([name, value]) => claimText(claims[name]) === value),
    );
    const subject = String(claims.sub);
    const repository = [claims.repository, claims.project_path].find((value) => typeof value === 'string');
    const commit = typeof claims.sha === 'string' && /^[0-9a-f]{40}$/.test(claims.sha) ? claims.sha : undefined;
    /** @type {(remote: string) => DeployAction[]} */
    const actionsOn = (remote) => [
      ...new Set(grants.filter((rule) => rule.remote === remote).flatMap((rule) => rule.can)),
    ];
    return {
      principal: {
        actor: {
          by: `oidc ${subject}`,
          kind: 'oidc',
          subject,
          ...(repository ? { repository } : {}),
          ...(commit ? { commit } : {}),
        },
        name: `the OIDC identity ${subject}`,
        may: (remote, action) => {
          const allowed = actionsOn(remote);
          return action === 'read' ? allowed.length > 0 : allowed.includes(action);
        },
        actionsOn,
      },
    };
  }

  return { verify };
}

module.exports = { parseTrust, oidcVerifier, looksLikeJwt };
