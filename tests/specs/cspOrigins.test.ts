import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pages } from '@nativegtm/contract/pages';
import { portsFrom } from '@nativegtm/contract/ports';
import { deployables } from '@nativegtm/server/deployables';
import { startSite } from '@nativegtm/server/startSite';
import { startNginx } from '../support/nginxServer';
import { rawGet } from '../support/rawGet';
import { ports as testPorts } from '../support/site';

// The CSP allows exactly the origins of the remotes the shell would load. remotes.json is validated once, by the
// contract (@nativegtm/contract/remotesConfig), for the shell and both servers: an entry the shell ignores (an
// unknown remote name, an address that is not http(s)) must add no origin on either server.

const base = testPorts.shell! + 120;
const folder = mkdtempSync(join(tmpdir(), 'nativegtm-csp-origins-'));
const remotesFile = join(folder, 'remotes.json');
/** The remotes the shell loads: the test site's. */
const loaded = Object.fromEntries(
  pages.map((page) => [page.remote, `http://127.0.0.1:${testPorts[page.package]}/mf-manifest.json`]),
);
writeFileSync(
  remotesFile,
  JSON.stringify({
    ...loaded,
    admin: 'http://unlisted.example:8123/mf-manifest.json',
    Jobs: 'http://wrong-case.example/mf-manifest.json',
  }),
);
const expectedSources = ["'self'", ...new Set(Object.values(loaded).map((url) => new URL(url).origin))].sort();

/** The sources of each fetch directive of the document's CSP. */
function scriptAndConnectSources(csp: string): { script: string[]; connect: string[] } {
  const directives = new Map(
    csp.split(';').map((directive) => {
      const [name = '', ...values] = directive.trim().split(/\s+/);
      return [name, values.sort()];
    }),
  );
  return { script: directives.get('script-src') ?? [], connect: directives.get('connect-src') ?? [] };
}

afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe.each([
  [
    'the built-in server',
    async () => {
      const ports = portsFrom(base);
      const site = await startSite(deployables, { ports, remotesFile });
      return { port: ports.shell!, stop: () => site.stop().then(() => undefined) };
    },
  ],
  [
    'nginx with the generated configuration',
    async () => {
      const ports = portsFrom(base + 5);
      const server = await startNginx({ ports, remotesFile });
      return { port: ports.shell!, stop: server.stop };
    },
  ],
])('%s, with an unknown remote name in remotes.json', (_name, start) => {
  let target: { port: number; stop: () => Promise<void> } | undefined;
  beforeAll(async () => {
    target = await start();
  });
  afterAll(async () => {
    await target?.stop();
  });

  it.each(['/', '/featured-jobs', '/no-such-page'])('allows exactly the loaded remotes on %s', async (path) => {
    const response = await rawGet(target!.port, path);
    const csp = String(response.headers['content-security-policy']);
    expect(scriptAndConnectSources(csp)).toEqual({ script: expectedSources, connect: expectedSources });
    expect(csp).not.toContain('unlisted.example');
    expect(csp).not.toContain('wrong-case.example');
  });
});
