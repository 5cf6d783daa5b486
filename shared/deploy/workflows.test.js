/** @jest-environment node */
// The CI configurations "Releasing from CI" gives teams (docs/releasing-from-ci.md), read from the page itself: they
// cannot run here, so each is checked for what makes it work with this API (trusted publishing, the audience, the
// commands with --to), and the operator's trust file example is read by the API's own parser.
const fs = require('node:fs');
const path = require('node:path');
const YAML = require('yaml');
const { repoRoot } = require('@nativegtm/server/deployables');
const { GITLAB_ID_TOKEN } = require('@nativegtm/tools/releases/deployCredential');
const { parseTrust } = require('./oidc');

const page = fs.readFileSync(path.join(repoRoot, 'docs/releasing-from-ci.md'), 'utf8');
/** @param {string} language */
const blocks = (language) =>
  [...page.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1] ?? '');
const [github, gitlab] = blocks('yaml').map((text) => /** @type {any} */ (YAML.parse(text)));

/** The release commands a list of shell lines runs, each with its --to. */
const commands = (/** @type {string[]} */ lines) =>
  lines.filter((line) => /npm run (release|promote)/.test(line)).map((line) => /--to "\$DEPLOY_API"/.test(line));

describe('the GitHub Actions workflow', () => {
  it('proves the job with its OIDC token for the API, and keeps no deploy secret', () => {
    expect(github.permissions['id-token']).toBe('write');
    const job = github.jobs.release;
    expect(job.env.NATIVEGTM_DEPLOY_AUDIENCE).toBe(job.env.DEPLOY_API);
    expect(JSON.stringify(github)).not.toMatch(/secrets\.|NATIVEGTM_DEPLOY_TOKEN/);
    const run = job.steps.flatMap((/** @type {{ run?: string }} */ step) => (step.run ? [step.run] : []));
    expect(commands(run)).toEqual([true, true]);
    // The id the release printed last is what it promotes.
    expect(run.at(-1)).toContain('"$(tail -n 1 release.log)"');
  });
});

describe('the GitLab CI job', () => {
  it("gives the job an id token named as the commands read it, for the API's audience", () => {
    const job = gitlab['release-jobs'];
    expect(Object.keys(job.id_tokens)).toEqual([GITLAB_ID_TOKEN]);
    expect(job.id_tokens[GITLAB_ID_TOKEN].aud).toBe(job.variables.DEPLOY_API);
    expect(commands(job.script)).toEqual([true, true]);
    expect(JSON.stringify(gitlab)).not.toMatch(/NATIVEGTM_DEPLOY_TOKEN/);
  });
});

it("gives a trust file the API's own parser takes", () => {
  const [trust] = blocks('json');
  const issuers = parseTrust(trust ?? '');
  expect(issuers.map((issuer) => issuer.issuer)).toEqual([
    'https://token.actions.githubusercontent.com',
    'https://gitlab.com',
  ]);
  expect(issuers[0]?.audience).toBe(github.jobs.release.env.NATIVEGTM_DEPLOY_AUDIENCE);
});
