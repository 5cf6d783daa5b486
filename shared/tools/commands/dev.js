#!/usr/bin/env node
// `npm run dev`: the shell and every page remote of the registry (shared/contract/pages.js) in watch mode, on their
// `npm start` ports, as one command with one prefixed log.
//
// `npm run dev -- <remote> [--against <site origin>]`: one remote's dev server with live reload, and the URL that
// shows the site at that origin (any where it runs: this machine's npm start, staging, production) with this remote
// served from it, in the browser that opens it only (an override: @nativegtm/contract/overrides). The site must accept
// the dev server's origin (OVERRIDE_ORIGINS: loopback unless set); the command asks it before it starts anything.
const path = require('node:path');
const { spawn } = require('node:child_process');
const { concurrently } = require('concurrently');
const { pages } = require('@nativegtm/contract/pages');
const { devPortOf, SHELL_PORT } = require('@nativegtm/contract/ports');
const { remoteNames } = require('@nativegtm/contract/remotes');
const { OVERRIDE_END_PATH, canonicalOrigin, overridePath } = require('@nativegtm/contract/overrides');
const { deployables } = require('@nativegtm/server/deployables');
const {
  readCommandLine,
  runCommand,
  Refusal,
  UsageError,
  wholeNumberOption,
} = require('@nativegtm/server/commandLine');

const USAGE = 'npm run dev [-- <remote> [--against <site origin>] [--port <port>] [--package-dir <folder>]]';
const DESCRIPTION = `Without a remote: the shell and every remote with live reload on ports ${SHELL_PORT}-${SHELL_PORT + pages.length}.
With one: that remote's dev server (its port plus 100 unless --port says) inside the site at --against
(http://localhost:${SHELL_PORT} unless given), in one browser only, through the URL it prints. --package-dir: a copy of
the remote's package to serve instead of its folder in this repository. The remotes: ${remoteNames.join(', ')}.`;

/** How long the first build may take before the command gives up on its dev server. */
const FIRST_BUILD_MS = 180_000;

/** Everything at once: the shell and every remote, each on its `npm start` port. */
function wholeSite() {
  const colors = ['blue', 'magenta', 'cyan', 'green', 'yellow', 'red', 'white', 'gray'];
  const { result } = concurrently(
    deployables.map((deployable, index) => ({
      command: `npm run dev -w ${deployable.name}`,
      name: deployable.name.replace(/-mfe$/, ''),
      prefixColor: colors[index % colors.length],
    })),
    { killOthersOn: ['failure'] },
  );
  return result;
}

/**
 * Whether the site takes an override of `remote` from `origin`: it answers its start path with a redirect, or says
 * why not (its own words), or nothing answers there.
 * @param {string} site
 * @param {string} remote
 * @param {string} origin
 */
async function siteAccepts(site, remote, origin) {
  let response;
  try {
    response = await fetch(`${site}${overridePath(remote, origin)}`, {
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    throw new Refusal(
      `nothing answers at ${site} (${/** @type {Error} */ (error).message}): start the site there first`,
    );
  }
  if (response.status !== 303) {
    const said = (await response.text()).trim().split('\n')[0];
    throw new Refusal(`${site} does not take this override: HTTP ${response.status} ${said}`);
  }
}

/**
 * Resolves once the dev server answers its manifest (the first build is done), or rejects if it exits first.
 * @param {string} origin
 * @param {import('node:child_process').ChildProcess} child
 */
async function firstBuild(origin, child) {
  const deadline = Date.now() + FIRST_BUILD_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Refusal(`the dev server stopped (${child.signalCode ?? `exit ${child.exitCode}`}), see above`);
    }
    try {
      const response = await fetch(`${origin}/mf-manifest.json`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Refusal(`the dev server did not finish its first build in ${FIRST_BUILD_MS / 1000} s`);
}

/**
 * One remote's dev server inside the site at `site`.
 * @param {{ remote: string, site: string, port: number, packageDir: string }} options
 */
async function insideSite({ remote, site, port, packageDir }) {
  const origin = `http://localhost:${port}`;
  await siteAccepts(site, remote, origin);
  // Its own dev script (nativegtm-webpack serve), told where its live-reload socket is (the page runs on the site's
  // origin, so the dev client cannot guess it from the page's address), and that the site's pages may open it (the
  // dev server takes a socket only from loopback and the hosts it is told).
  const child = spawn(
    'npm',
    [
      'run',
      'dev',
      '--',
      '--port',
      String(port),
      `--client-web-socket-url=ws://localhost:${port}/ws`,
      `--allowed-hosts=${new URL(site).hostname}`,
    ],
    { cwd: packageDir, stdio: 'inherit', detached: true },
  );
  // Its own process group (npm, then webpack): stopped as a whole, however this command ends.
  const stop = () => {
    if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  };
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) process.once(signal, stop);
  process.once('exit', stop);
  /** @type {Promise<number | null>} */
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    await firstBuild(origin, child);
  } catch (error) {
    stop();
    throw error;
  }
  process.stdout.write(
    [
      '',
      `${remote}: dev server on ${origin}, with live reload.`,
      `Open ${site}${overridePath(remote, origin)}`,
      `  to see the site at ${site} with ${remote} from ${origin}, in that browser only (its page renders in the`,
      `  browser: the site never fetches from a dev server). End it with the notice's "End", or ${site}${OVERRIDE_END_PATH}.`,
      '',
    ].join('\n'),
  );
  const code = await exited;
  if (code !== 0 && code !== null) throw new Refusal(`the dev server stopped (exit ${code})`);
}

runCommand(
  USAGE,
  async () => {
    const { values, positionals } = readCommandLine(process.argv.slice(2), {
      usage: USAGE,
      description: DESCRIPTION,
      max: 1,
      options: { against: { type: 'string' }, port: { type: 'string' }, 'package-dir': { type: 'string' } },
    });
    const remote = positionals[0];
    if (remote === undefined) {
      if (Object.keys(values).length > 0) throw new UsageError('--against, --port and --package-dir need a remote');
      return wholeSite();
    }
    const page = pages.find((candidate) => candidate.remote === remote);
    if (!page) throw new UsageError(`unknown remote "${remote}" (the remotes are ${remoteNames.join(', ')})`);
    const site = canonicalOrigin(values.against ?? `http://localhost:${SHELL_PORT}`);
    if (!site)
      throw new UsageError(`--against must be the site's origin (http(s)://host[:port]), not "${values.against}"`);
    const deployable = deployables.find((candidate) => candidate.remote === remote);
    return insideSite({
      remote,
      site,
      port: wholeNumberOption(values.port, '--port', { min: 1, max: 65535 }) ?? devPortOf(page),
      packageDir: path.resolve(values['package-dir'] ?? /** @type {{ dir: string }} */ (deployable).dir),
    });
  },
  { exitWhenDone: false },
);
