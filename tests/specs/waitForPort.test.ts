import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { waitForPort } from '../support/waitForPort';

// The wait every spec's servers start behind: it ends when the port listens, and at once when the server that was to
// listen on it has exited (a Ctrl+C, a crash), not after its timeout.

/** A loopback port nothing listens on. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('waitForPort', () => {
  it('resolves once the port listens', async () => {
    const port = await freePort();
    const server = createServer();
    setTimeout(() => server.listen(port, '127.0.0.1'), 300);
    try {
      await waitForPort(port, { timeoutMs: 5000 });
    } finally {
      server.close();
    }
  });

  it('rejects at once when the server that was to listen has exited, saying so', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => process.exit(3), 200)']);
    const started = Date.now();
    await expect(waitForPort(port, { timeoutMs: 10_000, what: 'the test server: nothing', child })).rejects.toThrow(
      `the test server: nothing listens on ${port}: it exited (3)`,
    );
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
