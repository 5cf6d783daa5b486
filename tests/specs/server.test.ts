import { createServer, type Server } from 'node:net';
import { deployables } from '@nativegtm/shared/server/site.js';
import { startSite } from '@nativegtm/shared/server/run-site.js';

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
    const base = 4700;
    const testPorts = Object.fromEntries(deployables.map((d) => [d.name, base + (d.port - 3000)]));
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
