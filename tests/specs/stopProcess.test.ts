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

  it("kills what the child started, once it has exited, when asked: a server's workers left draining", async () => {
    // A worker that ignores the signal, as nginx's finishing its requests, whose parent is killed after the grace.
    // The parent ignores it before it starts the worker: set after, the worker's pid could be read, and the signal
    // sent, before the parent's trap was (it then died of the signal itself, seen once on Node 24).
    const child = spawn(
      'sh',
      ['-c', `trap '' QUIT; sh -c "trap '' QUIT TERM; echo \\$\\$; while :; do sleep 0.05; done" & wait`],
      {
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    const worker = Number(String((await once(child.stdout!, 'data'))[0]).trim());
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    expect(alive(worker)).toBe(true);
    try {
      await stopProcess(child, { signal: 'SIGQUIT', graceMs: 200, children: true });
      expect(child.signalCode).toBe('SIGKILL');
      // Gone once its new parent has reaped it.
      for (let waited = 0; alive(worker) && waited < 2000; waited += 20) await new Promise((r) => setTimeout(r, 20));
      expect(alive(worker)).toBe(false);
    } finally {
      // Left by a stop that did not kill it: it would outlive the test run.
      if (alive(worker)) process.kill(worker, 'SIGKILL');
    }
  });

  it('kills a child that does not stop, after the grace period', async () => {
    const child = await startShell("trap '' TERM");
    const started = Date.now();
    await stopProcess(child, { graceMs: 300 });
    expect(child.signalCode).toBe('SIGKILL');
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  });
});
