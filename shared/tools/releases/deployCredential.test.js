/** @jest-environment node */
// What a release command sends the deploy API: a token when given; else the CI job's own OIDC identity, asked of the
// GitHub runner with the job's request URL and token, or read from the GitLab job's id_tokens variable.
const http = require('node:http');
const { deployCredential, GITLAB_ID_TOKEN } = require('./deployCredential');

const api = new URL('https://deploy.example');

/** A stand-in for the GitHub runner's token endpoint: answers `value` to the job's bearer, and records what it was asked. */
async function runner(/** @type {number} */ status = 200) {
  /** @type {{ url?: string, authorization?: string }[]} */
  const asked = [];
  const server = http.createServer((req, res) => {
    asked.push({ url: req.url, authorization: req.headers.authorization });
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(status === 200 ? JSON.stringify({ value: 'the.job.jwt' }) : '{"message":"no"}');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return { url: `http://127.0.0.1:${port}/token?api-version=2.0`, asked, close: () => server.close() };
}

it('is NATIVEGTM_DEPLOY_TOKEN when it is set, whatever CI runs it', async () => {
  const env = { NATIVEGTM_DEPLOY_TOKEN: 'ngd_x', [GITLAB_ID_TOKEN]: 'gitlab.jwt' };
  expect(await deployCredential(api, env)).toEqual({ credential: 'ngd_x', kind: 'token' });
});

it("is the GitHub job's OIDC token for the API's audience, asked of the runner", async () => {
  const github = await runner();
  try {
    const env = { ACTIONS_ID_TOKEN_REQUEST_URL: github.url, ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'runner-secret' };
    expect(await deployCredential(api, env)).toEqual({ credential: 'the.job.jwt', kind: 'github' });
    expect(await deployCredential(api, { ...env, NATIVEGTM_DEPLOY_AUDIENCE: 'nativegtm-deploy' })).toMatchObject({
      kind: 'github',
    });
    expect(github.asked).toEqual([
      { url: '/token?api-version=2.0&audience=https%3A%2F%2Fdeploy.example', authorization: 'Bearer runner-secret' },
      { url: '/token?api-version=2.0&audience=nativegtm-deploy', authorization: 'Bearer runner-secret' },
    ]);
  } finally {
    github.close();
  }
});

it('says why when the runner gives no token (a workflow without id-token: write)', async () => {
  const github = await runner(403);
  try {
    const env = { ACTIONS_ID_TOKEN_REQUEST_URL: github.url, ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'runner-secret' };
    await expect(deployCredential(api, env)).rejects.toThrow(
      "the runner's OIDC token cannot be had (HTTP 403); does the workflow grant id-token: write?",
    );
  } finally {
    github.close();
  }
});

it("is the GitLab job's id_tokens variable, and a refusal naming all three ways when there is none", async () => {
  expect(await deployCredential(api, { [GITLAB_ID_TOKEN]: 'gitlab.jwt' })).toEqual({
    credential: 'gitlab.jwt',
    kind: 'gitlab',
  });
  await expect(deployCredential(api, {})).rejects.toThrow(
    /^no credential for the deploy API: set NATIVEGTM_DEPLOY_TOKEN, or run in GitHub Actions .* id_tokens variable NATIVEGTM_ID_TOKEN$/,
  );
});
