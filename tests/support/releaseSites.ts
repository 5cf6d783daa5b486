// One release store read by both servers, as the release, canary and override specs need them: a scratch folder (the
// store and field data in it, and the environment the release commands read), releases published into it with `npm
// run release`, and the built-in site and nginx on their ports, each with a remotes.json of its own ports.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shippedRemotes } from '@nativegtm/contract/remotesConfig';
import { deployables } from '@nativegtm/server/deployables';
import { startSite } from '@nativegtm/server/startSite';
import { startNginx } from './nginxServer';
import { npmRun } from './releaseCommands';

/** A scratch folder and what the release commands are run with in it (RELEASES_DIR, FIELD_DATA_DIR). */
export interface ReleaseScratch {
  scratch: string;
  env: Record<string, string>;
}

/** A scratch folder any user can read (nginx's workers run as another user). */
export function releaseScratch(name: string): ReleaseScratch {
  const scratch = mkdtempSync(join(tmpdir(), `nativegtm-${name}-`));
  chmodSync(scratch, 0o755);
  return { scratch, env: { RELEASES_DIR: join(scratch, 'releases'), FIELD_DATA_DIR: join(scratch, 'field-data') } };
}

/** The build id a remote's build (a dist/ folder) was made with. */
export const buildIdOf = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'ssr/manifest.json'), 'utf8')).buildId as string;

/** `npm run release -- jobs --from <dir>`, which must succeed; the release's id. */
export async function publish({ env }: ReleaseScratch, dir: string): Promise<string> {
  const result = await npmRun('release', ['jobs', '--from', dir], env);
  expect(result).toMatchObject({ status: 0, lastLine: expect.stringMatching(/^[0-9a-f]{16}$/) });
  return result.lastLine;
}

/** Both servers on one store, and how to stop them and remove the scratch folder. */
export interface ReleaseSites {
  site: Awaited<ReturnType<typeof startSite>>;
  nginx: Awaited<ReturnType<typeof startNginx>>;
  stop(): Promise<void>;
}

/**
 * How long these sites' documents wait for a page's HTML. Not the servers' 400 ms: no spec on them is about the
 * timeout, and on a machine busy beside the suite (a process spinning on each core) a document missed it and came
 * without its page's HTML, which the specs read as the wrong release.
 */
const FRAGMENT_TIMEOUT_MS = 3000;

/**
 * The built-in site on `sitePorts` and nginx on `nginxPorts`, both serving the scratch's store and keeping field data
 * in it. `stop()` stops both and removes the scratch folder.
 */
export async function startReleaseSites(
  { scratch, env }: ReleaseScratch,
  sitePorts: Record<string, number>,
  nginxPorts: Record<string, number>,
): Promise<ReleaseSites> {
  const remotesFor = (ports: Record<string, number>, name: string) => {
    const file = join(scratch, name);
    writeFileSync(file, JSON.stringify(shippedRemotes({ host: '127.0.0.1', portOf: (page) => ports[page.package]! })));
    return file;
  };
  const site = await startSite(deployables, {
    ports: sitePorts,
    remotesFile: remotesFor(sitePorts, 'site-remotes.json'),
    releasesDir: env.RELEASES_DIR,
    fragmentTimeoutMs: FRAGMENT_TIMEOUT_MS,
    // This machine is the proxy (a browser reaches localhost on ::1): a test's X-Forwarded-For stands for visitors of
    // many networks.
    fieldData: { dir: env.FIELD_DATA_DIR!, trustedProxies: '127.0.0.1, ::1' },
  });
  let nginx;
  try {
    nginx = await startNginx({
      ports: nginxPorts,
      remotesFile: remotesFor(nginxPorts, 'nginx-remotes.json'),
      releasesDir: env.RELEASES_DIR,
      fieldDataDir: env.FIELD_DATA_DIR,
      trustedProxies: '127.0.0.1, ::1',
      fragmentTimeoutMs: FRAGMENT_TIMEOUT_MS,
    });
  } catch (error) {
    // Nothing left running for a spec whose set-up failed.
    await site.stop();
    rmSync(scratch, { recursive: true, force: true });
    throw error;
  }
  return {
    site,
    nginx,
    async stop() {
      await nginx.stop();
      await site.stop();
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}
