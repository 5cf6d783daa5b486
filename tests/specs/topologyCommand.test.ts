import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { repoRoot } from '@nativegtm/server/deployables';
import { stopProcessGroup } from '../support/engines/processes';
import { expectEventually } from '../support/eventually';
import { listeningPorts, processesOf, socketsOf, stillRunning, type Proc } from '../support/processTable';
import { npmRun } from '../support/releaseCommands';
import { ports as testPorts } from '../support/site';

// `npm run topology` as a person runs it in a terminal (docs/many-nodes.md): it leads a process group, and Ctrl+C
// signals every process of that group at once.

jest.setTimeout(300_000);

// Ports B+270..B+314: its HAProxy, Varnish and nodes (tests/support/testSite.js).
const BASE = testPorts.shell! + 270;

interface Run {
  child: ChildProcessByStdio<null, Readable, Readable>;
  /** Its os.tmpdir(): every folder it makes is in it. */
  folder: string;
  stdout: () => string;
  stderr: () => string;
  /** Resolves once stdout has a line that starts with `text`; rejects if it exits first. */
  line: (text: string, timeoutMs: number) => Promise<string>;
  exited: Promise<number | null>;
}

const runs: Run[] = [];
let started: Proc[] = [];

/**
 * Starts `node tests/topology.js --base BASE` leading a process group of its own, as a terminal does, with a
 * temporary folder of its own (TMPDIR) so that what it leaves there is its and no other test's.
 */
function startTopologyCommand(env: Record<string, string> = {}): Run {
  const folder = mkdtempSync(join(tmpdir(), 'nativegtm-topology-command-'));
  // As root, PostgreSQL's folder in it is the postgres user's, who must be able to enter it.
  chmodSync(folder, 0o755);
  const child = spawn(process.execPath, ['tests/topology.js', '--base', String(BASE)], {
    cwd: repoRoot,
    detached: true,
    env: { ...process.env, TMPDIR: folder, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const line = async (text: string, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = stdout.split('\n').find((candidate) => candidate.startsWith(text));
      if (found !== undefined) return found;
      if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
        throw new Error(`no line "${text}" (exit ${child.exitCode ?? child.signalCode}):\n${stdout}\n${stderr}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const run = { child, folder, stdout: () => stdout, stderr: () => stderr, line, exited };
  runs.push(run);
  return run;
}

/** The rows of the table it prints under "It listens on:". */
function portTable(stdout: string): { what: string; port: number }[] {
  const lines = stdout.split('\n');
  const header = lines.indexOf('It listens on:');
  if (header === -1) throw new Error(`no port table in:\n${stdout}`);
  const end = lines.indexOf('', header);
  return lines.slice(header + 2, end).map((row) => {
    const [, what, port] = /^(.*\S)\s{2,}(\d+)$/.exec(row) ?? [];
    if (!what) throw new Error(`not a row of the port table: "${row}"`);
    return { what, port: Number(port) };
  });
}

/** Its exit code once it has exited, or "still running" after `ms`. */
async function exitWithin(run: Run, ms: number): Promise<number | null | 'still running'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'still running'>((resolve) => (timer = setTimeout(() => resolve('still running'), ms)));
  const result = await Promise.race([run.exited, timeout]);
  clearTimeout(timer);
  return result;
}

/**
 * Its exit code, once it has exited by `deadline`; otherwise what it printed and what still runs, to say where it
 * hangs.
 */
async function exitBy(run: Run, deadline: number): Promise<number | null | string> {
  const code = await exitWithin(run, deadline - Date.now());
  if (code !== 'still running') return code;
  const { processes } = leftBehind(run);
  return `still running after 10 s:\n${processes.join('\n')}\n-- stdout:\n${run.stdout()}\n-- stderr:\n${run.stderr()}`;
}

/** Ctrl+C in its terminal: SIGINT to every process of its group. Returns when everything must have stopped by. */
function ctrlC(run: Run): number {
  process.kill(-run.child.pid!, 'SIGINT');
  return Date.now() + 10_000;
}

const NOTHING_LEFT = { processes: [], folders: [] };

/** What it left running (of its group, or naming its folder) and in its folder. */
const leftBehind = (run: Run) => ({
  processes: processesOf(run.child.pid!, run.folder).map((proc) => `${proc.pid} ${proc.cmdline}`),
  folders: readdirSync(run.folder),
});

afterEach(async () => {
  // Whatever a failed test left: its group, PostgreSQL, its folders.
  for (const run of runs.splice(0)) {
    const left = processesOf(run.child.pid!, run.folder);
    await stopProcessGroup(run.child.pid, { graceMs: 2000 });
    for (const proc of stillRunning([...left, ...started])) process.kill(proc.pid, 'SIGKILL');
    rmSync(run.folder, { recursive: true, force: true });
  }
  started = [];
});

describe('npm run topology', () => {
  it('stops before starting anything when a program it needs is missing, naming what to do', async () => {
    const run = startTopologyCommand({ HAPROXY_PATH: '/nonexistent/haproxy' });
    expect(await run.exited).toBe(1);
    expect(run.stderr()).toBe('error: HAPROXY_PATH points to /nonexistent/haproxy, which does not exist.\n');
    expect(run.stdout()).toBe('');
    expect(leftBehind(run)).toEqual(NOTHING_LEFT);
  });

  it.each([
    ['PostgreSQL', 'INITDB_PATH', 'initdb failed'],
    ['HAProxy', 'HAPROXY_PATH', 'HAProxy rejected its configuration'],
    ['nginx', 'NGINX_PATH', 'nginx rejected the generated configuration'],
  ])('stops what it started and removes its folders when %s fails to start', async (_name, variable, error) => {
    const run = startTopologyCommand({ [variable]: '/bin/false' });
    expect(await exitWithin(run, 120_000)).toBe(1);
    expect(run.stderr()).toContain(`error: ${error}`);
    expect(leftBehind(run)).toEqual(NOTHING_LEFT);
  });

  it('stops it all on Ctrl+C while it starts', async () => {
    const run = startTopologyCommand();
    // Next it starts the first node, which a Ctrl+C ends as it ends this command.
    await run.line('the store: ', 120_000);
    const deadline = ctrlC(run);
    expect(await exitBy(run, deadline)).toBe(0);
    expect(run.stdout()).toMatch(/\nStopped\.\n$/);
    // A node's worker, whose primary the Ctrl+C ended before it could stop it, ends by itself, a moment later.
    await expectEventually(async () => leftBehind(run), NOTHING_LEFT, { timeoutMs: deadline - Date.now() });
  });

  it('starts nothing more after a Ctrl+C that reached it before the part it starts next', async () => {
    const run = startTopologyCommand();
    await run.line('the store: ', 120_000);
    // To the command alone: as for a node spawned a moment after the Ctrl+C (a busy machine between its log line and
    // its spawn), which never got it. Before, that node started, and HAProxy, nginx and Varnish after it, before
    // anything stopped. (The node is spawned right after the line, so this is the node's case; a Ctrl+C while
    // HAProxy, nginx or Varnish starts ends that server, and the wait for its port with it.)
    process.kill(run.child.pid!, 'SIGINT');
    const deadline = Date.now() + 10_000;
    expect(await exitBy(run, deadline)).toBe(0);
    expect(run.stdout()).not.toContain('node-1: npm start on');
    expect(run.stdout()).toMatch(/\nStopped\.\n$/);
    await expectEventually(async () => leftBehind(run), NOTHING_LEFT, { timeoutMs: deadline - Date.now() });
  });

  it('names every port it takes and prints a release command to paste; Ctrl+C stops it all within 10 s', async () => {
    const run = startTopologyCommand();
    await run.line('Ctrl+C stops it.', 240_000);
    started = processesOf(run.child.pid!, run.folder);
    expect(started.map((proc) => proc.comm)).toEqual(
      expect.arrayContaining(['node', 'postgres', 'nginx', 'haproxy', 'varnishd']),
    );

    // The table names every port its processes listen on, and only those.
    const table = portTable(run.stdout());
    const named = table.map((row) => row.port);
    expect(new Set(named).size).toBe(named.length);
    const byNumber = (a: number, b: number) => a - b;
    expect([...listeningPorts(socketsOf(started))].sort(byNumber)).toEqual([...named].sort(byNumber));

    // The command runs as printed: every variable has a value (no placeholder), and they reach the store.
    const command = (await run.line('Release to it: ', 0)).slice('Release to it: '.length);
    expect(command).toMatch(/ npm run release -- jobs$/);
    expect(command).not.toMatch(/[<>]/);
    const assignments = command.replace(/ npm run release -- jobs$/, '').split(' ');
    const env = Object.fromEntries(assignments.map((word) => /^([A-Z_0-9]+)=([^<>'"\s]+)$/.exec(word)!.slice(1)));
    expect(Object.keys(env)).toEqual(expect.arrayContaining(['DATABASE_URL', 'RELEASES_BUCKET', 'RELEASES_DIR']));
    expect(statSync(env.RELEASES_DIR!).isDirectory()).toBe(true);
    const releases = await npmRun('releases', ['jobs'], env);
    expect({ status: releases.status, stderr: releases.stderr }).toEqual({ status: 0, stderr: '' });

    const deadline = ctrlC(run);
    expect(await exitBy(run, deadline)).toBe(0);
    await expectEventually(
      async () => ({
        ...leftBehind(run),
        processes: stillRunning(started).map((proc) => `${proc.pid} ${proc.cmdline}`),
        ports: [...listeningPorts()].filter((port) => named.includes(port)),
      }),
      { ...NOTHING_LEFT, ports: [] },
      { timeoutMs: deadline - Date.now() },
    );
  });
});
