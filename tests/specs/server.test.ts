import { createServer, type Server } from 'node:net';
import { deployables } from '@nativegtm/shared/server/site.js';
import { startSite } from '@nativegtm/shared/server/run-site.js';
import { ports, shellUrl } from '../support/site';

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

  it('serves index.html for page routes but a real 404 for a missing file', async () => {
    const page = await fetch(shellUrl('/featured-jobs'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);

    const missing = await fetch(shellUrl('/missing.1234abcd.js'));
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).not.toMatch(/html/);
  });

  it('revalidates what changes on deploy and caches content-hashed files for a year', async () => {
    const remote = `http://localhost:${ports['jobs-mfe']}`;
    for (const url of [shellUrl('/'), shellUrl('/remotes.json'), `${remote}/mf-manifest.json`, `${remote}/remoteEntry.js`]) {
      const response = await fetch(url);
      expect([url, response.headers.get('cache-control')]).toEqual([url, 'no-cache']);
    }
    const html = await (await fetch(shellUrl('/'))).text();
    const script = /src="?(\/main\.[0-9a-f]{10}\.js)/.exec(html)?.[1];
    expect(script).toBeDefined();
    const hashed = await fetch(shellUrl(script));
    expect(hashed.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('lets other origins load a remote (CORS) and serves it compressed', async () => {
    const response = await fetch(`http://localhost:${ports['jobs-mfe']}/remoteEntry.js`, {
      headers: { Origin: shellUrl('').replace(/\/$/, ''), 'Accept-Encoding': 'br, gzip' },
    });
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('content-encoding')).toBe('br');
  });
});
