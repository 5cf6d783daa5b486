// Real nginx with the generated configuration (@nativegtm/tools/nginx), on loopback ports: for the serving tests and
// the bench, which measure the same documents through it.
const { spawn, spawnSync } = require('node:child_process');
const { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { generateNginxConfig, pidFileOf, writeDocumentsPlan } = require('@nativegtm/tools/nginx');
const { registerNginx } = require('@nativegtm/server/nginxReload');
const { startCollector } = require('@nativegtm/server/collect');
const { stopProcess } = require('./stopProcess');
const { locateTool } = require('./systemTools');
const { waitForPort } = require('./waitForPort');

/**
 * Starts nginx; resolves once every port listens.
 * @param {{ ports: Record<string, number>, remotesFile: string, origin?: string, fragmentTimeoutMs?: number,
 *   roots?: Record<string, string>, releasesDir?: string, fieldDataDir?: string, collectorPort?: number,
 *   sampleRate?: number, trustedProxies?: string, documents?: boolean,
 *   store?: { DATABASE_URL: string, RELEASES_BUCKET: string, FIELD_DATA_SECRET: string } }} options
 *   roots: each package's dist/ folder, when not the checkout's own; releasesDir: a release store to serve (none by
 *   default: dist/ only); fieldDataDir: where the collector started beside nginx keeps field data (a scratch folder
 *   unless given); collectorPort: a collector already running (its own process), instead; trustedProxies: the collector's
 *   TRUSTED_PROXIES (loopback unless given); store: the store on PostgreSQL, of which releasesDir is the node's copy
 *   (the collector keeps it); documents: whether the collector composes the documents for everyone, which nginx then
 *   sends as files (documentFiles.js; yes unless told), else nginx composes every document per request (SSI).
 * @returns {Promise<{ stop: () => Promise<void>, config: string, warnings: string[], pid: number,
 *   collectorPort?: number, collectorMetrics?: string, errorLog: () => string }>} pid: nginx's master process;
 *   collectorPort: the port of the collector started beside it; collectorMetrics: the collector's /metrics URL;
 *   errorLog: what nginx has logged so far (warnings and worse)
 */
async function startNginx(options) {
  const nginx = locateTool('NGINX_PATH');
  const prefix = mkdtempSync(join(tmpdir(), 'nativegtm-nginx-'));
  // Where the collector composes the documents for everyone, which nginx sends as files (documentFiles.js).
  const documentsDir = options.documents === false ? undefined : join(prefix, 'documents');
  // As an operator runs it: beside nginx, with the same remotes.json and release store. It answers /remotes.json, so
  // nginx always has one. Serving dist/, it gets a store with nothing live in it, never the checkout's releases/.
  const collector =
    options.collectorPort !== undefined
      ? undefined
      : await startCollector({
          COLLECTOR_PORT: 0,
          FIELD_DATA_DIR: options.fieldDataDir ?? join(prefix, 'field-data'),
          FIELD_DATA_SECRET: options.store?.FIELD_DATA_SECRET,
          TRUSTED_PROXIES: options.trustedProxies,
          RELEASES_DIR: options.releasesDir ?? join(prefix, 'releases'),
          DATABASE_URL: options.store?.DATABASE_URL,
          RELEASES_BUCKET: options.store?.RELEASES_BUCKET,
          REMOTES_FILE: options.remotesFile,
          DOCUMENTS_DIR: documentsDir,
          METRICS_HOST: '127.0.0.1',
          METRICS_PORT: 0,
          LOG_LEVEL: 'silent',
        });
  const { config, warnings, plan } = await generateNginxConfig({
    ...options,
    prefix,
    listenHost: '127.0.0.1',
    collectorPort: collector?.port ?? options.collectorPort,
    documentsDir,
    brotliModule: locateTool('NGINX_BROTLI_MODULE'),
  });
  // As nginx:config does: the collector composes the documents with what this configuration composes them with.
  if (documentsDir !== undefined) writeDocumentsPlan(documentsDir, plan);
  const file = join(prefix, 'nginx.conf');
  writeFileSync(file, config);
  // As nginx:config does: the canary command reloads it.
  if (options.releasesDir !== undefined) registerNginx(options.releasesDir, pidFileOf(prefix));

  // -e: nginx opens its error log before reading the configuration; its default one is root's to write.
  const errorLog = join(prefix, 'error.log');
  const readErrorLog = () => (existsSync(errorLog) ? readFileSync(errorLog, 'utf8') : '');
  const check = spawnSync(nginx, ['-t', '-e', errorLog, '-p', prefix, '-c', file], { encoding: 'utf8' });
  if (check.status !== 0) {
    await collector?.stop();
    rmSync(prefix, { recursive: true, force: true });
    throw new Error(`nginx rejected the generated configuration:\n${check.stderr}`);
  }

  // Started by root, nginx runs its workers as an unprivileged user, who cannot read a checkout in a directory only
  // its owner may enter (a clone in root's home or in `mktemp -d`): the tests serve the files as the user who runs
  // them. (Started by anyone else, nginx cannot switch users and its workers already run as that user.)
  const runAs = process.getuid?.() === 0 ? ' user root;' : '';
  const child = spawn(nginx, ['-e', errorLog, '-p', prefix, '-c', file, '-g', `daemon off;${runAs}`], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  try {
    await Promise.all(Object.values(options.ports).map((port) => waitForPort(port, { what: 'nginx: nothing', child })));
    // nginx serves the remotes the collector reads its builds from: read them now that it does.
    await collector?.refreshBuilds();
  } catch (error) {
    child.kill('SIGKILL');
    await collector?.stop();
    const log = readErrorLog();
    rmSync(prefix, { recursive: true, force: true });
    throw new Error(`${error instanceof Error ? error.message : error}\n${stderr}\n${log}`);
  }
  return {
    config,
    warnings,
    pid: /** @type {number} */ (child.pid),
    collectorPort: collector?.port,
    collectorMetrics: collector?.metricsUrl,
    errorLog: readErrorLog,
    // SIGQUIT: nginx's graceful stop, the requests under way finish.
    stop: async () => {
      await stopProcess(child, { signal: 'SIGQUIT', children: true });
      await collector?.stop();
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}

module.exports = { startNginx };
