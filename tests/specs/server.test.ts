import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createServer, type Server } from 'node:net';
import { portsFrom } from '@nativegtm/contract/ports';
import { deployables } from '@nativegtm/server/deployables';
import { startSite } from '@nativegtm/server/startSite';
import { ports } from '../support/site';

function occupy(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, () => resolve(server));
  });
}

function portIsFree(port: number): Promise<boolean> {
  return occupy(port).then(
    (server) => new Promise((resolve) => server.close(() => resolve(true))),
    () => false,
  );
}

describe('the site server', () => {
  it('refuses to start when a port is taken, names the port, and leaves nothing running', async () => {
    const base = ports.shell! + 30; // clear of the test site and of what other spec files start
    const testPorts = portsFrom(base);
    const blocker = await occupy(testPorts['jobs-mfe']!);
    try {
      await expect(startSite(deployables, { ports: testPorts })).rejects.toThrow(
        `Port ${testPorts['jobs-mfe']} (jobs-mfe) is already in use`,
      );
      for (const name of ['shell', 'candidates-mfe', 'employers-mfe']) {
        await expect(portIsFree(testPorts[name]!)).resolves.toBe(true);
      }
    } finally {
      blocker.close();
    }
  });
});

describe('the server command', () => {
  const repoRoot = resolve(__dirname, '../..');

  function serve(port: number): ChildProcessWithoutNullStreams {
    return spawn(process.execPath, [join(repoRoot, 'shared/server/commands/servePackage.js'), '--port', String(port)], {
      cwd: join(repoRoot, 'jobs-mfe'),
    });
  }

  function exitOf(child: ChildProcessWithoutNullStreams): Promise<{ code: number | null; output: string }> {
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    return new Promise((done) => child.once('exit', (code) => done({ code, output })));
  }

  it('exits non-zero with a clear message when its port is taken', async () => {
    const port = ports.shell! + 40;
    const blocker = await occupy(port);
    try {
      const { code, output } = await exitOf(serve(port));
      expect(code).toBe(1);
      expect(output).toContain(`Port ${port} (jobs-mfe) is already in use`);
    } finally {
      blocker.close();
    }
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('shuts down cleanly on %s', async (signal) => {
    const port = ports.shell! + 41;
    const child = serve(port);
    const exited = exitOf(child);
    await new Promise<void>((ready) =>
      child.stdout.on('data', (chunk) => String(chunk).includes('serving') && ready()),
    );
    await expect(fetch(`http://localhost:${port}/mf-manifest.json`).then((r) => r.status)).resolves.toBe(200);
    child.kill(signal);
    await expect(exited).resolves.toMatchObject({ code: 0 });
    await expect(portIsFree(port)).resolves.toBe(true);
  });
});
