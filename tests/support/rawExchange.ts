import { connect } from 'node:net';

export interface Exchange {
  /** The status code of the first response line, or null when the server closed without answering. */
  status: number | null;
  /** How long until the server answered or closed. */
  ms: number;
  /** Whether neither happened within the bound. */
  timedOut: boolean;
}

/**
 * Sends bytes as they are (no HTTP client in between to fix them up) and waits, at most `timeoutMs`, for the server
 * to answer a status line or close the connection. `chunks` with `gapMs` send the request slowly, piece by piece;
 * `end` says the client has nothing more to send once they are out (a request cut short is then over for the server
 * too, instead of waiting for the rest until its header timeout).
 */
export function rawExchange(
  port: number,
  request: string | Buffer | (string | Buffer)[],
  { timeoutMs = 5000, gapMs = 0, end = false }: { timeoutMs?: number; gapMs?: number; end?: boolean } = {},
): Promise<Exchange> {
  const chunks = Array.isArray(request) ? request : [request];
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    let settled = false;
    const timers: ReturnType<typeof setTimeout>[] = [];
    const finish = (status: number | null, timedOut = false) => {
      if (settled) return;
      settled = true;
      timers.forEach(clearTimeout);
      socket.destroy();
      resolve({ status, ms: Date.now() - started, timedOut });
    };
    socket.on('connect', () => {
      chunks.forEach((chunk, index) => {
        timers.push(
          setTimeout(() => {
            if (socket.destroyed) return;
            socket.write(chunk);
            if (end && index === chunks.length - 1) socket.end();
          }, index * gapMs),
        );
      });
    });
    socket.on('data', (data: Buffer) => {
      received += data.toString('latin1');
      const line = /^HTTP\/1\.[01] (\d{3})/.exec(received);
      if (line) finish(Number(line[1]));
      else if (received.includes('\r\n')) finish(null);
    });
    socket.on('error', () => finish(null));
    socket.on('close', () => finish(null));
    timers.push(setTimeout(() => finish(null, true), timeoutMs));
  });
}
