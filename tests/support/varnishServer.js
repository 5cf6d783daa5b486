// Real Varnish, from Debian's package, in front of a site's shell origin: docs/cdn.vcl as an operator would deploy it,
// pointed at the origin's port. Started and stopped by the test that needs it.
const { spawn } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { repoRoot } = require('@nativegtm/server/deployables');
const { stopProcess } = require('./stopProcess');
const { locateTool } = require('./systemTools');
const { waitForPort } = require('./waitForPort');

/**
 * @param {{ port: number, originPort: number }} options
 * @returns {Promise<{ stop: () => Promise<void> }>}
 */
async function startVarnish({ port, originPort }) {
  const varnishd = locateTool('VARNISHD_PATH');
  const dir = mkdtempSync(join(tmpdir(), 'nativegtm-varnish-'));
  const vcl = readFileSync(join(repoRoot, 'docs/cdn.vcl'), 'utf8').replace(
    '.port = "3000";',
    `.port = "${originPort}";`,
  );
  if (!vcl.includes(`"${originPort}"`)) throw new Error('docs/cdn.vcl no longer names its backend port as "3000"');
  const vclFile = join(dir, 'cdn.vcl');
  writeFileSync(vclFile, vcl);
  // -F: in the foreground, a child of the test; -n: its own working folder; -T none: no management port; -j none:
  // no separate user (the test's files are its own to read).
  const child = spawn(
    varnishd,
    [
      '-F',
      '-a',
      `127.0.0.1:${port}`,
      '-f',
      vclFile,
      '-n',
      join(dir, 'work'),
      '-s',
      'malloc,32m',
      '-T',
      'none',
      '-j',
      'none',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  try {
    await waitForPort(port, { what: 'Varnish: nothing', timeoutMs: 20_000, child });
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`${error instanceof Error ? error.message : error}\n${stderr}`);
  }
  return {
    async stop() {
      await stopProcess(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

module.exports = { startVarnish };
