import { spawn } from 'node:child_process';
import { liveMembers, stopProcessGroup } from '../support/engines/processes';

// Browsers leave helpers behind (re-parented to init) that keep writing into the folder we then remove; these are
// real processes, shaped like that.

/** Starts `script` in a shell leading its own process group; resolves with the shell and the pid it prints. */
function startGroup(script: string): Promise<{ leader: number; orphan: number }> {
  const shell = spawn('sh', ['-c', script], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  return new Promise((resolve, reject) => {
    shell.once('error', reject);
    shell.stdout.once('data', (chunk) => resolve({ leader: shell.pid as number, orphan: Number(String(chunk)) }));
  });
}

describe('ending a browser and everything it started', () => {
  it('ends a helper that outlived the program that started it', async () => {
    // The subshell exits at once, so its sleep is re-parented: what MiniBrowser's web process does.
    const { leader, orphan } = await startGroup('(sleep 60 & echo $!) ; sleep 60');
    expect(liveMembers(leader)).toEqual(expect.arrayContaining([leader, orphan]));
    await stopProcessGroup(leader);
    expect(liveMembers(leader)).toEqual([]);
  });

  it('kills a process that ignores the request to end, after the grace period', async () => {
    const { leader, orphan } = await startGroup("trap '' TERM; (trap '' TERM; sleep 60 & echo $!) ; sleep 60");
    expect(liveMembers(leader)).toContain(orphan);
    const started = Date.now();
    await stopProcessGroup(leader, { graceMs: 300 });
    expect(liveMembers(leader)).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  });

  it('returns at once for a group that has already ended', async () => {
    const { leader } = await startGroup('echo 0');
    await stopProcessGroup(leader);
    await expect(stopProcessGroup(leader)).resolves.toBeUndefined();
  });
});
