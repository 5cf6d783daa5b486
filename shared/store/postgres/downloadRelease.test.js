const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { createHash } = require('node:crypto');
const { downloadRelease } = require('./postgresBackend');

/**
 * A file as a release's rows record it.
 * @param {string} name
 * @param {string} text
 */
const recorded = (name, text) => ({
  path: name,
  size: Buffer.byteLength(text),
  sha256: createHash('sha256').update(text).digest('hex'),
});

/**
 * A bucket whose objects answer after `delayMs` each, as objectStore.get does: never more than maxBytes + 1 bytes, and
 * ended by its signal. `changed` answers other bytes than recorded, at once; `huge` an object far larger than
 * recorded; `stalled` never answers.
 * @param {Record<string, string>} objects
 * @param {{ delayMs?: number, changed?: string, huge?: string, stalled?: string }} [options]
 */
function bucket(objects, { delayMs = 5, changed, huge, stalled } = {}) {
  let inFlight = 0;
  let most = 0;
  let started = 0;
  let startedEnded = 0;
  /** @type {string[]} */
  const ended = [];
  return {
    most: () => most,
    inFlight: () => inFlight,
    started: () => started,
    /** GETs asked for with a signal that had already ended them: a download started after the release gave up. */
    startedEnded: () => startedEnded,
    ended,
    store: /** @type {import('./objectStore').ObjectStore} */ (
      /** @type {unknown} */ ({
        get: async (/** @type {string} */ key, /** @type {{ maxBytes?: number, signal?: AbortSignal }} */ options) => {
          const { maxBytes = Infinity, signal } = options ?? {};
          const name = key.split('/').slice(2).join('/');
          started += 1;
          if (signal?.aborted) startedEnded += 1;
          if (name === changed) return Buffer.from(`${objects[name]};planted`);
          // Read without a bound, the object would be read whole: gigabytes, in memory.
          if (name === huge) {
            if (!Number.isFinite(maxBytes)) throw new Error(`${name} read without a bound`);
            return Buffer.alloc(maxBytes + 1);
          }
          inFlight += 1;
          most = Math.max(most, inFlight);
          /** @type {() => void} */
          let aborted = () => {};
          try {
            await new Promise((resolve, reject) => {
              if (name !== stalled) setTimeout(resolve, delayMs);
              aborted = () => {
                ended.push(name);
                reject(signal?.reason);
              };
              if (signal?.aborted) aborted();
              signal?.addEventListener('abort', aborted, { once: true });
            });
          } finally {
            inFlight -= 1;
            signal?.removeEventListener('abort', aborted);
          }
          return Buffer.from(/** @type {string} */ (objects[name]));
        },
      })
    ),
  };
}

/**
 * The files a download wrote into `dir`'s js/ folder.
 * @param {string} dir
 */
const writtenFiles = (dir) => (fs.existsSync(path.join(dir, 'js')) ? fs.readdirSync(path.join(dir, 'js')) : []);

describe("a release's files, downloaded from the bucket", () => {
  /** @type {string} */
  let dir;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-download-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const objects = Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`js/${index}.js`, `file ${index}`]));
  const files = Object.entries(objects).map(([name, text]) => recorded(name, text));

  it('come several at once, each as recorded', async () => {
    const storage = bucket(objects);
    await downloadRelease(storage.store, 'jobs', 'r1', files, dir);
    for (const [name, text] of Object.entries(objects))
      expect(fs.readFileSync(path.join(dir, name), 'utf8')).toBe(text);
    expect(storage.most()).toBeGreaterThan(1);
    expect(storage.most()).toBeLessThanOrEqual(8);
  });

  it('stop at a file changed in the bucket, and write nothing once refused', async () => {
    const storage = bucket(objects, { delayMs: 20, changed: 'js/3.js' });
    await expect(downloadRelease(storage.store, 'jobs', 'r1', files, dir)).rejects.toThrow(
      'js/3.js of release r1 of jobs in the bucket is not the file recorded',
    );
    const written = writtenFiles(dir).length;
    expect(fs.existsSync(path.join(dir, 'js/3.js'))).toBe(false);
    // The downloads under way (the first eight, but the refused one) ended before it threw; none was started after.
    expect(written).toBeLessThanOrEqual(7);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(writtenFiles(dir)).toHaveLength(written);
  });

  it('refuse an object far larger than recorded, having read one byte past its size', async () => {
    const storage = bucket(objects, { huge: 'js/0.js' });
    await expect(downloadRelease(storage.store, 'jobs', 'r1', files, dir)).rejects.toThrow(
      'js/0.js of release r1 of jobs in the bucket is not the file recorded',
    );
  });

  it('end the downloads under way at a refusal: one that stalls does not keep it waiting', async () => {
    const storage = bucket(objects, { stalled: 'js/0.js', changed: 'js/5.js' });
    await expect(downloadRelease(storage.store, 'jobs', 'r1', files, dir)).rejects.toThrow(
      'js/5.js of release r1 of jobs in the bucket is not the file recorded',
    );
    expect(storage.ended).toContain('js/0.js');
  });

  it('give up a release that takes too long in all, each file answering in time', async () => {
    const storage = bucket(objects, { delayMs: 50 });
    await expect(downloadRelease(storage.store, 'jobs', 'r1', files, dir, { timeoutMs: 120 })).rejects.toThrow(
      'release r1 of jobs took more than 0.12 s to download',
    );
    // Those under way were ended before it threw, and no other was started. Which ones were under way at 0.12 s is
    // the machine's to say: on a busy one, all eight may be writing their file rather than waiting on the bucket.
    expect(storage.inFlight()).toBe(0);
    expect(storage.startedEnded()).toBe(0);
    expect(storage.started()).toBeLessThan(files.length);
    const written = writtenFiles(dir).length;
    expect(written + storage.ended.length).toBeLessThanOrEqual(storage.started());
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(writtenFiles(dir)).toHaveLength(written);
  });

  it.each([
    ['js/../js/0.js', 'a path that is not in its plain form'],
    ['JS/0.js', 'a path that is another one but for case'],
  ])('refuse a list naming one file twice (%s: %s) before downloading anything', async (name) => {
    const storage = bucket({ ...objects, [name]: 'x' });
    await expect(downloadRelease(storage.store, 'jobs', 'r1', [...files, recorded(name, 'x')], dir)).rejects.toThrow(
      `names ${name} twice or in another form`,
    );
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('refuse a file named outside the release folder before downloading anything', async () => {
    const storage = bucket(objects);
    await expect(
      downloadRelease(storage.store, 'jobs', 'r1', [...files, recorded('../escape.js', 'x')], dir),
    ).rejects.toThrow('names a file outside its folder: ../escape.js');
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
