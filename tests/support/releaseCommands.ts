import { spawn } from 'node:child_process';
import { repoRoot } from '@nativegtm/server/deployables';

export interface CommandResult {
  status: number | null;
  stdout: string;
  stderr: string;
  /** The last line printed on stdout: a release id, a URL. */
  lastLine: string;
}

/**
 * Runs `npm run <script> -- <args>` at the repository's root, as a team does, with `env` added (RELEASES_DIR, …).
 * Asynchronous, so two commands can run at once.
 */
export function npmRun(script: string, args: string[], env: Record<string, string>): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (status) => {
      const lines = stdout.trimEnd().split('\n');
      resolve({ status, stdout, stderr, lastLine: lines[lines.length - 1] ?? '' });
    });
  });
}
