/** @jest-environment node */
// A bucket that answers badly: an object far larger than the file asked for, an answer that stops, one that trickles.
// The store must bound each, in memory and in time, since a node copies a release under its store's lock.
const http = require('node:http');
const { openObjectStore } = require('./objectStore');

/** What the bucket answers a GET of an object with, per test. */
/** @type {(response: http.ServerResponse) => void} */
let answer;
/** How many bytes the bucket wrote of its last answer before the connection ended. */
let written = 0;
const bucket = http.createServer((request, response) => answer(response));
/** @type {NodeJS.ProcessEnv} */
const saved = { ...process.env };

beforeAll(async () => {
  await new Promise((resolve) => bucket.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (bucket.address());
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${port}`,
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    AWS_REGION: 'us-east-1',
    AWS_RESPONSE_CHECKSUM_VALIDATION: 'WHEN_REQUIRED',
    // No retries: each test is about one answer.
    AWS_MAX_ATTEMPTS: '1',
  });
});
afterAll(async () => {
  process.env = saved;
  bucket.closeAllConnections();
  await new Promise((resolve) => bucket.close(resolve));
});

/**
 * Answers with `total` bytes in chunks of 64 KiB, as fast as the reader takes them, counting what went out.
 * @param {number} total
 * @param {{ length?: boolean }} [options] length: with a Content-Length header (else chunked)
 */
function large(total, { length = false } = {}) {
  written = 0;
  return (/** @type {http.ServerResponse} */ response) => {
    response.writeHead(200, length ? { 'content-length': String(total) } : {});
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const more = () => {
      while (written < total && !response.destroyed) {
        written += chunk.length;
        if (!response.write(chunk)) return void response.once('drain', more);
      }
      response.end();
    };
    more();
  };
}

/** @param {{ idleMs?: number, objectMs?: number }} [limits] */
const open = (limits) => openObjectStore('s3://releases/site', { ...limits });

describe('a GET from the bucket', () => {
  it('reads the whole object when no bound is asked for', async () => {
    answer = large(1024 * 1024, { length: true });
    const objects = open();
    try {
      expect((await objects.get('jobs/r1/a.js')).length).toBe(1024 * 1024);
    } finally {
      objects.close();
    }
  });

  it.each([
    ['with a Content-Length', true],
    ['chunked', false],
  ])('reads one byte past maxBytes of a huge object and no more (%s)', async (_, length) => {
    answer = large(256 * 1024 * 1024, { length });
    const objects = open();
    try {
      const body = await objects.get('jobs/r1/a.js', { maxBytes: 10 });
      expect(body.length).toBe(11);
      // The connection was dropped: the bucket got nowhere near the end (socket buffers hold a few MiB at most).
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(written).toBeLessThan(32 * 1024 * 1024);
    } finally {
      objects.close();
    }
  });

  it('gives up an answer that stops, after the idle time', async () => {
    answer = (response) => {
      response.writeHead(200, { 'content-length': '100' });
      response.write('only part of it');
    };
    const objects = open({ idleMs: 300 });
    try {
      const started = Date.now();
      await expect(objects.get('jobs/r1/a.js')).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      objects.close();
    }
  });

  it('gives up an answer that never starts, after the idle time', async () => {
    answer = () => {};
    const objects = open({ idleMs: 300 });
    try {
      await expect(objects.get('jobs/r1/a.js')).rejects.toThrow(/timed out/);
    } finally {
      objects.close();
    }
  });

  it.each([
    ['alone', false],
    ["with the caller's signal", true],
  ])('gives up an answer that trickles, never idle, after the time one object may take (%s)', async (_, withSignal) => {
    /** @type {ReturnType<typeof setInterval> | undefined} */
    let trickle;
    answer = (response) => {
      response.writeHead(200, { 'content-length': '1000' });
      trickle = setInterval(() => response.write('a'), 20);
      response.once('close', () => clearInterval(trickle));
    };
    const objects = open({ idleMs: 10_000, objectMs: 400 });
    try {
      const started = Date.now();
      const signal = withSignal ? new AbortController().signal : undefined;
      await expect(objects.get('jobs/r1/a.js', { signal })).rejects.toThrow('jobs/r1/a.js took more than 400 ms');
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      clearInterval(trickle);
      objects.close();
    }
  });

  it('ends when its signal is aborted, mid-answer', async () => {
    answer = (response) => {
      response.writeHead(200, { 'content-length': '100' });
      response.write('only part of it');
    };
    const objects = open();
    const stop = new AbortController();
    try {
      const getting = objects.get('jobs/r1/a.js', { signal: stop.signal });
      setTimeout(() => stop.abort(), 100);
      await expect(getting).rejects.toThrow(/abort/i);
    } finally {
      objects.close();
    }
  });
});
