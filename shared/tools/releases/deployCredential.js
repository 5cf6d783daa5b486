// The credential a release command sends the deploy API (`--to <url>`): NATIVEGTM_DEPLOY_TOKEN when it is set;
// otherwise the CI job's own OIDC identity token, so that no long-lived secret is kept anywhere ("trusted
// publishing"): on GitHub Actions, asked of the runner with the job's ACTIONS_ID_TOKEN_REQUEST_URL and
// ACTIONS_ID_TOKEN_REQUEST_TOKEN (the workflow grants `id-token: write`); on GitLab, the `id_tokens` variable the job
// names NATIVEGTM_ID_TOKEN. The audience is NATIVEGTM_DEPLOY_AUDIENCE, the API's origin unless set; the API checks
// the same one.
const { Refusal } = require('@nativegtm/server/commandLine');

/** The GitLab job's id_tokens variable the commands read. */
const GITLAB_ID_TOKEN = 'NATIVEGTM_ID_TOKEN';

/**
 * @param {URL} api the deploy API
 * @param {NodeJS.ProcessEnv} [env]
 * @param {typeof fetch} [fetchImpl]
 * @returns {Promise<{ credential: string, kind: 'token' | 'github' | 'gitlab' }>}
 */
async function deployCredential(api, env = process.env, fetchImpl = fetch) {
  if (env.NATIVEGTM_DEPLOY_TOKEN) return { credential: env.NATIVEGTM_DEPLOY_TOKEN, kind: 'token' };
  const audience = env.NATIVEGTM_DEPLOY_AUDIENCE || api.origin;
  const { ACTIONS_ID_TOKEN_REQUEST_URL: requestUrl, ACTIONS_ID_TOKEN_REQUEST_TOKEN: requestToken } = env;
  if (requestUrl && requestToken) {
    const url = new URL(requestUrl);
    url.searchParams.set('audience', audience);
    let response;
    try {
      response = await fetchImpl(url, { headers: { authorization: `Bearer ${requestToken}` } });
    } catch (error) {
      throw new Refusal(`the runner's OIDC token cannot be had: ${/** @type {Error} */ (error).message}`);
    }
    /** @type {any} */
    const body = await response.json().catch(() => undefined);
    if (!response.ok || typeof body?.value !== 'string') {
      throw new Refusal(
        `the runner's OIDC token cannot be had (HTTP ${response.status}); does the workflow grant id-token: write?`,
      );
    }
    return { credential: body.value, kind: 'github' };
  }
  const gitlab = env[GITLAB_ID_TOKEN];
  if (gitlab) return { credential: gitlab, kind: 'gitlab' };
  throw new Refusal(
    'no credential for the deploy API: set NATIVEGTM_DEPLOY_TOKEN, or run in GitHub Actions with ' +
      `permissions id-token: write, or in GitLab CI with an id_tokens variable ${GITLAB_ID_TOKEN}`,
  );
}

module.exports = { deployCredential, GITLAB_ID_TOKEN };
