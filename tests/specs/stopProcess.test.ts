import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { stopProcess } from '../support/stopProcess';

// Stopping a server a test started, which may have ended already: Ctrl+C in a terminal signals every process of the
// group, so `npm run topology`'s servers exit before it stops them.

/** A shell running `script`, once it has set its traps (it prints a line then). */
async function startShell(script: string): Promise<ChildProcess> {
  const child = spawn('sh', ['-c', `${script}; echo ready; while :; do sleep 0.05; done`], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  await once(child.stdout!, 'data');
  return child;
}

describe('stopping a child process', () => {
  it('resolves at once when the child has already exited, by a signal of its own or by itself', async () => {
    const signalled = await startShell(':');
    signalled.kill('SIGINT');
    await once(signalled, 'exit');
    const exited = spawn('sh', ['-c', 'exit 3']);
    await once(exited, 'exit');
    const started = Date.now();
    await Promise.all([stopProcess(signalled), stopProcess(exited)]);
    expect(Date.now() - started).toBeLessThan(100);
  });

  it('sends the signal the program stops gracefully on', async () => {
    const child = await startShell("trap 'exit 7' QUIT");
    await stopProcess(child, { signal: 'SIGQUIT' });
    expect({ code: child.exitCode, signal: child.signalCode }).toEqual({ code: 7, signal: null });
  });

  it('kills a child that does not stop, after the grace period', async () => {
    const child = await startShell("trap '' TERM");
    const started = Date.now();
    await stopProcess(child, { graceMs: 300 });
    expect(child.signalCode).toBe('SIGKILL');
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  });
});
