import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FIELD_DATA_PATH, type Beacon } from '@nativegtm/contract/fieldData';
import { close, listen } from '@nativegtm/server/httpServer';

/**
 * The test site's shell behind a pass-through proxy that keeps a copy of each field-data beacon posted to it, so
 * the tests read what the browser sent as well as what the server kept of it. Not playwright's page.route: a beacon
 * sent as the page unloads (a closed tab) never reaches a page's or a context's routes or request events. On a port
 * of the system's choosing, off the test site's port plan.
 */
export async function startBeaconProxy(shellPort: number) {
  const beacons: Beacon[] = [];
  const server: Server = createServer((req, res) => {
    if (req.method === 'POST' && req.url === FIELD_DATA_PATH) {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => beacons.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Beacon));
    }
    const upstream = request(
      { host: 'localhost', port: shellPort, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await listen(server, 0, 'beacon proxy');
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://localhost:${port}${path}`,
    /** Every beacon received so far, oldest first. */
    beacons,
    stop: () => {
      server.closeAllConnections();
      return close(server);
    },
  };
}
