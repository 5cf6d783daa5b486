// S3-compatible object storage for a test: s3rver, in this process, on a loopback port, with one bucket. It ignores
// conditional writes and cannot read aws-chunked bodies (the store sends whole bodies), so the SDK is told to add
// checksums only where S3 requires them. The test gives s3rver's class: it is the test's devDependency, and this
// package's exports are production code.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

/**
 * @param {{ S3rver: typeof import('s3rver'), bucket?: string }} options
 * @returns {Promise<{ env: Record<string, string>, bucket: string, dir: string, stop: () => Promise<void>,
 *   halt: () => Promise<void>, resume: () => Promise<void> }>} dir: where it keeps the objects; halt: stops serving,
 *   keeping them; resume: serves them again on the same port
 */
async function startObjectStorage({ S3rver, bucket = 'releases' }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-s3-'));
  /** @param {number} on */
  const serve = (on) =>
    new S3rver({
      port: on,
      address: '127.0.0.1',
      directory: dir,
      silent: true,
      configureBuckets: [{ name: bucket, configs: [] }],
    });
  /** @type {InstanceType<typeof S3rver> | undefined} */
  let server = serve(0);
  const { port } = await server.run();
  return {
    dir,
    halt: async () => {
      // s3rver keeps its http.Server there, undeclared.
      const http = /** @type {{ httpServer?: import('node:http').Server } | undefined} */ (
        /** @type {unknown} */ (server)
      )?.httpServer;
      const closing = server?.close();
      // Requests under way end too (a kept-alive upload would otherwise go on), as when storage goes away.
      http?.closeAllConnections();
      await closing;
      server = undefined;
    },
    resume: async () => {
      server = serve(port);
      await server.run();
    },
    bucket,
    env: {
      AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${port}`,
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      AWS_REGION: 'us-east-1',
      AWS_REQUEST_CHECKSUM_CALCULATION: 'WHEN_REQUIRED',
      AWS_RESPONSE_CHECKSUM_VALIDATION: 'WHEN_REQUIRED',
    },
    stop: async () => {
      await server?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

module.exports = { startObjectStorage };
