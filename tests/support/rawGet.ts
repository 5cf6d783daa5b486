import { request, type Agent, type ClientRequest } from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** Whether it was sent a second time, its first connection closed under it. */
  resent: boolean;
}

/** The errors of a request sent on a connection the other side had just closed: nothing was done with it. */
const CLOSED_UNDER = new Set(['ECONNRESET', 'EPIPE']);

/**
 * A request with the path sent byte for byte (fetch would normalise "/../" away, which is exactly what a traversal
 * test must not do). Bodies are read as sent: no decompression.
 *
 * Node's agent keeps connections alive between requests. A server (or a proxy in front of it) may close an idle one
 * just as a request is sent on it (its keep-alive timeout, an nginx reload's old worker, HAProxy reusing a connection
 * the node had just closed): the request then fails with "socket hang up" though nothing was done with it. As browsers
 * do, such a request is sent once more, on a new connection (Node's documented `reusedSocket` pattern), and says so
 * (`resent`); a failure on a new connection is the answer. So is a response cut short, and, with `timeoutMs`, a
 * connection silent for that long.
 */
export function rawRequest(
  port: number,
  path: string,
  {
    method = 'GET',
    headers = {},
    body,
    agent,
    timeoutMs,
  }: { method?: string; headers?: Record<string, string>; body?: string; agent?: Agent; timeoutMs?: number } = {},
): Promise<RawResponse> {
  const once = (fresh: boolean) =>
    new Promise<RawResponse>((resolve, reject) => {
      const req: ClientRequest = request(
        { host: '127.0.0.1', port, path, method, headers, agent: fresh ? false : agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks).toString('utf8'),
              resent: fresh,
            }),
          );
          res.on('error', reject);
          res.on('close', () => {
            if (!res.complete) reject(Object.assign(new Error('response cut short'), { code: 'ECUTSHORT' }));
          });
        },
      );
      if (timeoutMs !== undefined) {
        req.setTimeout(timeoutMs, () =>
          req.destroy(Object.assign(new Error(`nothing heard for ${timeoutMs} ms`), { code: 'ETIMEDOUT' })),
        );
      }
      req.on('error', (error: NodeJS.ErrnoException) => {
        const closedUnder = req.reusedSocket && CLOSED_UNDER.has(error.code ?? '');
        reject(Object.assign(error, { closedUnder }));
      });
      req.end(body);
    });
  return once(false).catch((error: Error & { closedUnder?: boolean }) => {
    if (!error.closedUnder) throw error;
    return once(true);
  });
}

/** A GET, as rawRequest sends it. */
export function rawGet(port: number, path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return rawRequest(port, path, { headers });
}
