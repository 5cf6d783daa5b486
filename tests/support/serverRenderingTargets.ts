import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { portsFrom } from '@nativegtm/contract/ports';
import { deployables } from '@nativegtm/server/deployables';
import { close, listen } from '@nativegtm/server/httpServer';
import { startSite } from '@nativegtm/server/startSite';
import { startFaultyRemote, type FaultMode, type FaultScope } from './faultyRemote';
import { startNginx } from './nginxServer';
import { NGINX_FRAGMENT_MAX_AGE_MS } from '@nativegtm/tools/nginx/fragmentCaching';
import { REFRESH_INTERVAL_MS } from '@nativegtm/server/sharedDocuments';

/**
 * The built-in server keeps a fragment (or its failure) for 500 ms (fragmentCache.js), and composes its ready
 * documents again every REFRESH_INTERVAL_MS.
 */
const BUILT_IN_SETTLE_MS = 500 + REFRESH_INTERVAL_MS + 100;

// What the server-rendering specs share: the two servers under test (the built-in one and nginx with the generated
// configuration), each with the jobs remote replaced by a faulty one the test steers, and helpers to read HTML.

export const repoRoot = resolve(__dirname, '../..');
export const ORIGIN = 'https://nativegtm.example';
const remotes = deployables.filter((d) => d.role === 'remote');

export interface Target {
  port: number;
  /** How long after a remote changes this server's documents may still show what it answered before. */
  settleMs: number;
  url: (path: string) => string;
  stop: () => Promise<unknown>;
}

/** A server under test; fragmentTimeoutMs and portOffset (from the fixture's base) as the spec needs. */
/**
 * Starts a server of one kind. perRequest: one that composes each document for its request, having none ready (the
 * built-in server does until a page is asked for; nginx, without its collector's files): what a test of a failing
 * remote needs, where a server that had the page would keep its last good document.
 */
type StartTarget = (
  fragmentTimeoutMs?: number,
  portOffset?: number,
  options?: { perRequest?: boolean },
) => Promise<Target>;

export const decode = (html: string) =>
  html
    .replace(/&amp;/g, '&')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"');

/** The text a reader of the HTML sees: without tags and comments, entities decoded. */
export const textOf = (html: string) =>
  decode(html.replace(/<!--[\s\S]*?-->/g, '').replace(/<[^>]+>/g, ' ')).replace(/\s+/g, ' ');

/**
 * The servers of one spec file, on ports from `base` (the built-in server's deployables from base, nginx's from
 * base + 10, the faulty jobs remote on base + 5 and where it redirects on base + 6): files that jest runs side by
 * side each take their own base. Registers the faulty remote's start and stop with the spec's beforeAll/afterAll.
 */
export function serverRenderingTargets(base: number) {
  let faulty: Awaited<ReturnType<typeof startFaultyRemote>> | undefined;
  let elsewhere: Server | undefined;
  const faultyRemote = () => {
    if (!faulty) throw new Error('the faulty jobs remote starts in beforeAll');
    return faulty;
  };

  /** A remotes.json for a server under test, in a folder of its own that `remove` takes away with it. */
  function remotesFileFor(host: string, portOf: (pkg: string) => number): { file: string; remove: () => void } {
    const folder = mkdtempSync(join(tmpdir(), 'nativegtm-ssr-remotes-'));
    chmodSync(folder, 0o755); // nginx workers run as an unprivileged user and must read the file
    const file = join(folder, 'remotes.json');
    const entries = remotes.map((d) => [
      d.remote,
      d.remote === 'jobs'
        ? `${faultyRemote().url}/mf-manifest.json`
        : `http://${host}:${portOf(d.name)}/mf-manifest.json`,
    ]);
    writeFileSync(file, JSON.stringify(Object.fromEntries(entries)));
    return { file, remove: () => rmSync(folder, { recursive: true, force: true }) };
  }

  /**
   * fragmentTimeoutMs: the default is what the server checks measure; the browser checks, which are not about
   * timeouts, give a remote more time, so that a busy 2-core CI machine cannot turn their first document into the
   * fallback one.
   */
  const builtIn: StartTarget = async (fragmentTimeoutMs = 400, portOffset = 0) => {
    const ports = portsFrom(base + portOffset);
    const remotesFile = remotesFileFor('localhost', (pkg) => ports[pkg]!);
    const site = await startSite(deployables, {
      ports,
      remotesFile: remotesFile.file,
      origin: ORIGIN,
      fragmentTimeoutMs,
    });
    const stop = async () => {
      await site.stop();
      remotesFile.remove();
    };
    return {
      port: ports.shell!,
      settleMs: BUILT_IN_SETTLE_MS,
      url: (path) => `http://localhost:${ports.shell}${path}`,
      stop,
    };
  };

  const nginx: StartTarget = async (fragmentTimeoutMs = 400, portOffset = 0, { perRequest = false } = {}) => {
    const ports = portsFrom(base + 10 + portOffset);
    const remotesFile = remotesFileFor('127.0.0.1', (pkg) => ports[pkg]!);
    const server = await startNginx({
      ports,
      remotesFile: remotesFile.file,
      origin: ORIGIN,
      fragmentTimeoutMs,
      documents: !perRequest,
    });
    // The jobs remote is elsewhere (not one of this nginx's own servers): its query parameters were read from its
    // origin, as on a deployment where remotes live on other hosts.
    if (server.warnings.length > 0) throw new Error(server.warnings.join('\n'));
    if (!server.config.includes('map $args $nativegtm_jobs_0')) throw new Error('no variant maps for the jobs page');
    const stop = async () => {
      await server.stop();
      remotesFile.remove();
    };
    return {
      port: ports.shell!,
      settleMs: NGINX_FRAGMENT_MAX_AGE_MS + 100,
      url: (path) => `http://127.0.0.1:${ports.shell}${path}`,
      stop,
    };
  };

  beforeAll(async () => {
    // Where a redirecting remote points: content the document must never include.
    elsewhere = createServer((_req, res) => res.end('<div data-remote="jobs" >REDIRECTED ELSEWHERE</div>'));
    await listen(elsewhere, base + 6, 'elsewhere');
    faulty = await startFaultyRemote(join(repoRoot, 'jobs-mfe/dist'), base + 5, `http://localhost:${base + 6}`);
  });
  afterAll(async () => {
    await faulty?.stop();
    if (elsewhere) await close(elsewhere);
  });

  return {
    servers: [
      ['the built-in server (npm start)', builtIn],
      ['nginx with the generated configuration', nginx],
    ] as const,
    /** The jobs remote of both servers, which a test makes fail (or redirect) and whose requests it reads. */
    get faulty() {
      return faultyRemote();
    },
    /** Changes the jobs remote, then waits until `target` can no longer answer from what it kept of it before. */
    async setJobs(target: Target, mode: FaultMode, scope: FaultScope = 'all'): Promise<void> {
      faultyRemote().setMode(mode, scope);
      await new Promise((resolve) => setTimeout(resolve, target.settleMs));
    },
  };
}
