// S3-compatible object storage for a test: s3rver, in this process, on a loopback port, with one bucket. It ignores
// conditional writes and cannot read aws-chunked bodies (the store sends whole bodies), so the SDK is told to add
// checksums only where S3 requires them. The test gives s3rver's class: it is the test's devDependency, and this
// package's exports are production code.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

/**
 * @param {{ S3rver: typeof import('s3rver'), bucket?: string }} options
 * @returns {Promise<{ env: Record<string, string>, bucket: string, stop: () => Promise<void> }>}
 */
async function startObjectStorage({ S3rver, bucket = 'releases' }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-s3-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    directory: dir,
    silent: true,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  return {
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
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

module.exports = { startObjectStorage };
