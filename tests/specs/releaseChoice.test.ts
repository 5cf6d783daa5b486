import { appendFileSync, chmodSync, cpSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUCKET_COOKIE, BUCKETS, CANARIES_META, sideOf } from '@nativegtm/contract/canaryBuckets';
import { FIELD_TOKEN_META } from '@nativegtm/contract/fieldData';
import { portsFrom } from '@nativegtm/contract/ports';
import { parseRemotesConfig } from '@nativegtm/contract/remotesConfig';
import { pages } from '@nativegtm/contract/pages';
import { PREVIEW_COOKIE, releaseFolder } from '@nativegtm/contract/releases';
import { deployables } from '@nativegtm/server/deployables';
import { thisCommand, writeCanary, endCanary } from '@nativegtm/store/canaryInStore';
import { storeLayout } from '@nativegtm/store/layout';
import { reloadNginx } from '@nativegtm/server/nginxReload';
import { integrityOf, rewriteBuildFile, writeFragmentIntegrity } from '@nativegtm/build/integrity';
import { eventually } from '../support/eventually';
import { rawGet } from '../support/rawGet';
import { npmRun } from '../support/releaseCommands';
import { publish, releaseScratch, startReleaseSites, type ReleaseSites } from '../support/releaseSites';
import { ports as testPorts } from '../support/site';

// Both servers decide alike which release of a remote a request gets (@nativegtm/contract/releaseChoice): the same
// requests, for every kind of cookie a browser may send, against the same store states, including a canary whose
// state is corrupt and a preview of a release no longer in the store, get the same release of the jobs page from the
// built-in server and from nginx, and that release is the one the rule names.

jest.setTimeout(180_000);

// Ports B+182..B+186 (the built-in server) and B+187..B+191 (nginx): see tests/support/testSite.js.
const sitePorts = portsFrom(testPorts.shell! + 182);
const nginxPorts = portsFrom(testPorts.shell! + 187);
const servers = [
  { name: 'the built-in server', port: sitePorts.shell! },
  { name: 'nginx', port: nginxPorts.shell! },
];
const jobs = deployables.find((d) => d.remote === 'jobs')!;
const jobsPage = pages.find((page) => page.remote === 'jobs')!;
const SHARE = 25;
/** A release id no store holds: what a preview cookie names once its release was pruned. */
const PRUNED = 'feedfacefeedface';

let sites: ReleaseSites | undefined;
let env: Record<string, string>;
/**
 * The jobs releases: live, the canary's, one only ever previewed, and one whose HTML is changed on the node's copy; and
 * the build each one's HTML carries.
 */
const ids = { live: '', canary: '', previewed: '', tampered: '' };
const builds = {
  live: '',
  canary: 'release-choice-canary',
  previewed: 'release-choice-previewed',
  tampered: 'release-choice-tampered',
};
/** The integrity of each release's list: each one's differs, so that what is vouched for names the release. */
const lists: Record<keyof typeof ids, string> = { live: '', canary: '', previewed: '', tampered: '' };

/**
 * A copy of the checkout's jobs build whose server-rendered HTML carries another build id, and whose manifest (so its
 * integrity list) names it too, its page manifest naming the new HTML's integrity: a release the documents and
 * remotes.json tell apart without a second webpack build.
 */
function variantOf(scratch: string, buildId: string): string {
  const dist = join(jobs.dir, 'dist');
  const dir = join(scratch, buildId);
  cpSync(dist, dir, { recursive: true });
  const rewrite = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const file = join(folder, name);
      if (statSync(file).isDirectory()) rewrite(file);
      else if (/\.(br|gz)$/.test(name)) rmSync(file);
      else writeFileSync(file, readFileSync(file, 'utf8').replaceAll(builds.live, buildId));
    }
  };
  rewrite(join(dir, 'ssr'));
  writeFragmentIntegrity(dir);
  const manifest = JSON.parse(readFileSync(join(dir, 'mf-manifest.json'), 'utf8')) as object;
  rewriteBuildFile(dir, 'mf-manifest.json', JSON.stringify({ ...manifest, variant: buildId }));
  return dir;
}

beforeAll(async () => {
  const store = releaseScratch('release-choice');
  env = store.env;
  builds.live = JSON.parse(readFileSync(join(jobs.dir, 'dist/ssr/manifest.json'), 'utf8')).buildId;
  ids.live = await publish(store, join(jobs.dir, 'dist'));
  const listOf = (dir: string) => integrityOf(readFileSync(join(dir, 'integrity.json')));
  lists.live = listOf(join(jobs.dir, 'dist'));
  const canary = variantOf(store.scratch, builds.canary);
  const previewed = variantOf(store.scratch, builds.previewed);
  [lists.canary, lists.previewed] = [listOf(canary), listOf(previewed)];
  ids.canary = await publish(store, canary);
  ids.previewed = await publish(store, previewed);
  ids.tampered = await publish(store, variantOf(store.scratch, builds.tampered));
  expect(await npmRun('promote', ['jobs', ids.live, '--skip-gate'], env)).toMatchObject({ status: 0 });
  sites = await startReleaseSites(store, sitePorts, nginxPorts);
});

afterAll(async () => {
  await sites?.stop();
});

const layout = () => storeLayout(env.RELEASES_DIR!, 'jobs');

/** A bucket on that side of the jobs canary at SHARE. */
function bucketOn(side: 'canary' | 'control' | 'outside'): number {
  return [...Array(BUCKETS).keys()].find((bucket) => sideOf(bucket, 'jobs', SHARE) === side)!;
}

/** What the jobs page's document and /remotes.json say a request got: the release, and whom it was for. */
async function releaseFor(port: number, cookie: string) {
  // A connection each: nginx's old workers close their idle kept-alive ones after a reload.
  const headers: Record<string, string> = { connection: 'close', ...(cookie ? { cookie } : {}) };
  const document = await rawGet(port, jobsPage.route, headers);
  const remotes = await rawGet(port, '/remotes.json', headers);
  const build = /data-remote="jobs" data-build="([^"]+)"/.exec(document.body)?.[1];
  const served = parseRemotesConfig(JSON.parse(remotes.body));
  const manifest = served.entries.jobs!;
  return {
    release: Object.entries(builds).find(([, id]) => id === build)?.[0] ?? `unknown build ${build}`,
    // Vouched for from the store: the list of the release whose files the client code loads.
    vouched: Object.entries(lists).find(([, integrity]) => integrity === served.integrity.jobs)?.[0] ?? 'none',
    // The client code follows the same release: live at the remote's root, any other under its folder.
    manifest: Object.entries(ids).find(([, id]) => manifest.includes(releaseFolder(id)))?.[0] ?? 'live',
    cohort: new RegExp(`<meta name="${FIELD_TOKEN_META}" content="[^"]+\\.\\d+\\.([^.]+)\\.`).exec(document.body)?.[1],
    personal: /private/.test(String(document.headers['cache-control'])),
  };
}

/** The canaries a server's documents list now. */
async function listed(port: number) {
  const { body } = await rawGet(port, '/', { connection: 'close' });
  return new RegExp(`<meta name="${CANARIES_META}" content="([^"]*)"`).exec(body)?.[1]?.trim() ?? '';
}

/** Both servers serve the store as it is now: nginx reloaded (as the commands do), the built-in server re-read it. */
async function serversTake(canaries: string) {
  await reloadNginx(env.RELEASES_DIR!);
  for (const { name, port } of servers) {
    await eventually(
      () => listed(port).catch(() => undefined),
      (now) => now === canaries,
      { timeoutMs: 10_000, what: `the canaries ${name} lists` },
    );
  }
}

/** Every kind of cookie a browser may send that bears on the jobs release (made once the ids are known). */
const cookiesOf = () => {
  const canarySide = `${BUCKET_COOKIE}=${bucketOn('canary')}`;
  return {
    none: '',
    'canary side': canarySide,
    'control side': `${BUCKET_COOKIE}=${bucketOn('control')}`,
    outside: `${BUCKET_COOKIE}=${bucketOn('outside')}`,
    'a forged bucket': `${BUCKET_COOKIE}=100`,
    preview: `${PREVIEW_COOKIE}=jobs.${ids.previewed}`,
    'preview on the canary side': `${PREVIEW_COOKIE}=jobs.${ids.previewed}; ${canarySide}`,
    'preview of a pruned release on the canary side': `${PREVIEW_COOKIE}=jobs.${PRUNED}; ${canarySide}`,
    "another remote's preview on the canary side": `${PREVIEW_COOKIE}=employers.${PRUNED}; ${canarySide}`,
  };
};
type Expected = { release: keyof typeof ids; cohort?: string };

/** With no canary in effect (none runs, or its state cannot be read): live for all but a preview in the store. */
const withoutCanary: Record<keyof ReturnType<typeof cookiesOf>, Expected> = {
  none: { release: 'live' },
  'canary side': { release: 'live' },
  'control side': { release: 'live' },
  outside: { release: 'live' },
  'a forged bucket': { release: 'live' },
  preview: { release: 'previewed', cohort: 'preview' },
  'preview on the canary side': { release: 'previewed', cohort: 'preview' },
  'preview of a pruned release on the canary side': { release: 'live' },
  "another remote's preview on the canary side": { release: 'live' },
};

/** Each cookie's expected release and cohort, in each store state. */
const table: {
  state: string;
  canaries: string;
  set: () => void;
  expected: Record<keyof ReturnType<typeof cookiesOf>, Expected>;
}[] = [
  {
    state: 'no canary',
    canaries: '',
    set: () => endCanary(layout()),
    expected: withoutCanary,
  },
  {
    state: `a canary at ${SHARE} %`,
    canaries: `jobs=${SHARE}`,
    set: () =>
      writeCanary(layout(), 'jobs', {
        v: 1,
        id: ids.canary,
        share: SHARE,
        steps: [SHARE, 100],
        startedAt: new Date().toISOString(),
        stepStartedAt: new Date().toISOString(),
        settings: { stepTimeMs: 600_000, minViews: 200, maxWaitMs: 600_000 },
        verdicts: [],
        command: thisCommand(),
      }),
    expected: {
      none: { release: 'live' },
      'canary side': { release: 'canary', cohort: 'canary:jobs' },
      'control side': { release: 'live', cohort: 'control:jobs' },
      outside: { release: 'live' },
      'a forged bucket': { release: 'live' },
      preview: { release: 'previewed', cohort: 'preview' },
      'preview on the canary side': { release: 'previewed', cohort: 'preview' },
      'preview of a pruned release on the canary side': { release: 'canary', cohort: 'canary:jobs' },
      "another remote's preview on the canary side": { release: 'canary', cohort: 'canary:jobs' },
    },
  },
  {
    state: 'a canary whose state is corrupt',
    canaries: '',
    set: () => writeFileSync(join(layout().canary, 'canary.json'), '{"v": 1, "id": "'),
    expected: withoutCanary,
  },
];

describe('which release of the jobs page a request gets, on both servers', () => {
  it.each(table)('is the same on both, and the rule’s, with $state', async ({ set, canaries, expected }) => {
    set();
    await serversTake(canaries);
    for (const [name, cookie] of Object.entries(cookiesOf())) {
      const want = expected[name as keyof ReturnType<typeof cookiesOf>];
      const got = await Promise.all(servers.map(({ port }) => releaseFor(port, cookie)));
      const shared = want.cohort === undefined;
      for (const [index, { name: server }] of servers.entries()) {
        expect({ server, cookie: name, ...got[index] }).toEqual({
          server,
          cookie: name,
          vouched: want.release,
          release: want.release,
          manifest: want.release,
          cohort: want.cohort,
          personal: !shared,
        });
      }
    }
  });

  it("takes whom /remotes.json is for from nginx's own decision, never from headers a browser sends", async () => {
    endCanary(layout());
    await serversTake('');
    const forged = {
      connection: 'close',
      'x-nativegtm-personal': '1',
      'x-nativegtm-release-jobs': releaseFolder(ids.previewed),
      'x-nativegtm-override-remote': 'jobs',
      'x-nativegtm-override-origin': 'http://localhost:3103',
    };
    const remotes = await rawGet(nginxPorts.shell!, '/remotes.json', forged);
    expect(parseRemotesConfig(JSON.parse(remotes.body)).entries.jobs).not.toMatch(/releases\/|localhost:3103/);
    expect(remotes.headers['cache-control']).toBe('no-cache');
  });
});

describe("a release's server-rendered HTML changed in a node's copy of the store", () => {
  it('is left out by both servers, and the head, which was not changed, is still in', async () => {
    // Someone with the node's disk: a script of the site's own origin, in every variant of the page's HTML.
    const bodies = join(layout().release(ids.tampered), 'ssr/body');
    chmodSync(bodies, 0o755);
    for (const file of readdirSync(bodies)) {
      chmodSync(join(bodies, file), 0o644);
      appendFileSync(join(bodies, file), '<script src="/planted.js"></script>');
    }
    const headers = { connection: 'close', cookie: `${PREVIEW_COOKIE}=jobs.${ids.tampered}` };
    for (const { name, port } of servers) {
      const { body } = await rawGet(port, jobsPage.route, headers);
      expect({
        server: name,
        // The previewed release's head: the server took that release, and pasted what its record vouches for.
        head: body.includes(`remote="jobs" build="${builds.tampered}"`),
        planted: body.includes('planted.js'),
        page: body.includes('data-remote="jobs"'),
      }).toEqual({ server: name, head: true, planted: false, page: false });
    }
  });
});
