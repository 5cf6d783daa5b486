/** @jest-environment node */
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');
const { bodyWrapperStart, headMarker } = require('@nativegtm/contract/fragments');
const { PLAN_FILE } = require('@nativegtm/contract/documentFiles');
const { createDocumentWriter, startDocumentFiles } = require('./documentFiles');
const { encodeAhead } = require('./documentResponse');
const { createRemotesFile } = require('./remotesFile');
const { captureLogs } = require('./observability/logCapture');

/** @typedef {import('./sharedDocuments').ReadyDocument} ReadyDocument */

/**
 * @param {string} html
 * @returns {Promise<ReadyDocument>}
 */
async function ready(html) {
  return { status: 200, route: '/employers', html, encoded: await encodeAhead(html), timing: undefined };
}

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls `read` until it returns something other than undefined, for up to 10 s.
 * @template T
 * @param {() => T | undefined} read
 * @returns {Promise<T>}
 */
async function eventually(read) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('not within 10 s');
    await sleep(10);
  }
}

describe('the documents written for nginx to send', () => {
  /** @type {string} */
  let dir;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-documents-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('are each written plain, gzipped and in brotli, the bytes sent, and nothing left beside them', async () => {
    const writer = createDocumentWriter(dir);
    const document = await ready('<!doctype html><h1>Hire</h1>');
    await writer.swap('employers', new Map([['index', document]]));
    const file = path.join(dir, 'employers', 'index.html');
    expect(fs.readFileSync(file, 'utf8')).toBe('<!doctype html><h1>Hire</h1>');
    expect(zlib.gunzipSync(fs.readFileSync(`${file}.gz`)).toString()).toBe(document.html);
    expect(zlib.brotliDecompressSync(fs.readFileSync(`${file}.br`)).toString()).toBe(document.html);
    expect(fs.readdirSync(path.join(dir, 'employers')).sort()).toEqual([
      'index.html',
      'index.html.br',
      'index.html.gz',
    ]);
  });

  it('are written again only when they changed, and removed, plain file first, when no longer ready', async () => {
    const writer = createDocumentWriter(dir);
    const kept = await ready('kept');
    const gone = await ready('gone');
    await writer.swap(
      'jobs',
      new Map([
        ['_', kept],
        ['sales', gone],
      ]),
    );
    const keptFile = path.join(dir, 'jobs', '_.html');
    fs.writeFileSync(keptFile, 'changed on disk by the test');
    await writer.swap('jobs', new Map([['_', kept]]));
    // The same document is not written again; the one no longer ready is gone in every encoding.
    expect(fs.readFileSync(keptFile, 'utf8')).toBe('changed on disk by the test');
    expect(fs.readdirSync(path.join(dir, 'jobs')).sort()).toEqual(['_.html', '_.html.br', '_.html.gz']);
    await writer.swap('jobs', new Map([['_', await ready('kept, newer')]]));
    expect(fs.readFileSync(keptFile, 'utf8')).toBe('kept, newer');
  });

  it('are replaced by a rename: a reader sees the old file or the new one, whole', async () => {
    const writer = createDocumentWriter(dir);
    const old = 'o'.repeat(200_000);
    const next = 'n'.repeat(200_000);
    await writer.swap('employers', new Map([['index', await ready(old)]]));
    const file = path.join(dir, 'employers', 'index.html');
    const swapping = writer.swap('employers', new Map([['index', await ready(next)]]));
    /** @type {Set<string>} */
    const seen = new Set();
    let reading = true;
    void swapping.finally(() => {
      reading = false;
    });
    while (reading) {
      seen.add(fs.readFileSync(file, 'utf8'));
      await new Promise((resolve) => setImmediate(resolve));
    }
    await swapping;
    seen.add(fs.readFileSync(file, 'utf8'));
    expect([...seen].every((text) => text === old || text === next)).toBe(true);
    expect(seen.has(next)).toBe(true);
  });

  it('are written, with a release store, in the folder of the canaries each lists, and moved when that changes', async () => {
    const writer = createDocumentWriter(dir, ['candidates', 'jobs']);
    const listing = (/** @type {string} */ canaries) =>
      ready(`<head><meta name="nativegtm-canaries" content="${canaries}" /></head>`);
    await writer.swap('jobs', new Map([['_', await listing('jobs=50')]]));
    expect(fs.readdirSync(path.join(dir, 'jobs'))).toEqual([',jobs=50']);
    await writer.swap('jobs', new Map([['_', await ready('<head></head>')]]));
    // The canary ended: only the folder of none listed holds the page, so nginx still listing it composes instead.
    expect(fs.readdirSync(path.join(dir, 'jobs', ',jobs=50'))).toEqual([]);
    expect(fs.readdirSync(path.join(dir, 'jobs', ','))).toEqual(['_.html', '_.html.br', '_.html.gz']);
  });

  it("are all removed by clear(), the plan and anything that is not a screen's folder left in place", async () => {
    const writer = createDocumentWriter(dir);
    await writer.swap('employers', new Map([['index', await ready('x')]]));
    fs.writeFileSync(path.join(dir, PLAN_FILE), '{}');
    fs.mkdirSync(path.join(dir, 'etc'));
    writer.clear(['employers', 'jobs']);
    expect(fs.readdirSync(dir).sort()).toEqual(['etc', PLAN_FILE]);
  });
});

describe("nginx's documents, composed by the collector", () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-document-files-'));
  const shellRoot = path.join(folder, 'shell');
  const dir = path.join(folder, 'documents');
  const template =
    '<!doctype html><head><!--# include virtual="/_compose/page-head/$page" --></head>' +
    '<body><!--# include virtual="/_compose/page-body/$page?$args" --></body>';
  let build = 'b1';
  const files = () => ({
    '/ssr/manifest.json': JSON.stringify({ name: 'employers', buildId: build }),
    '/ssr/head.html': `${headMarker('employers', build)}<title>Employers</title>`,
    '/ssr/body/index.html': `${bodyWrapperStart('employers', build)}data-variant="index"><h1>Hire ${build}</h1></div>`,
  });
  const remote = http.createServer((req, res) => {
    const file = /** @type {Record<string, string>} */ (files())[new URL(String(req.url), 'http://remote').pathname];
    res.statusCode = file ? 200 : 404;
    res.end(file ?? '');
  });
  /** @type {ReturnType<typeof createRemotesFile>} */
  let remotes;
  const plan = { shellRoot, origin: 'https://nativegtm.example', sampleRate: 1, fragmentTimeoutMs: 2000 };
  const writePlan = (/** @type {unknown} */ value) =>
    fs.writeFileSync(path.join(dir, PLAN_FILE), typeof value === 'string' ? value : JSON.stringify(value));
  const documentOf = (/** @type {string} */ screen) => {
    const file = path.join(dir, screen, 'index.html');
    return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
  };

  beforeAll(async () => {
    fs.mkdirSync(shellRoot, { recursive: true });
    fs.writeFileSync(path.join(shellRoot, 'index.html'), template);
    await new Promise((resolve) => remote.listen(0, '127.0.0.1', () => resolve(undefined)));
    const { port } = /** @type {import('node:net').AddressInfo} */ (remote.address());
    const remotesFile = path.join(folder, 'remotes.json');
    fs.writeFileSync(remotesFile, JSON.stringify({ employers: `http://127.0.0.1:${port}/mf-manifest.json` }));
    remotes = createRemotesFile(remotesFile);
  });
  beforeEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir);
    build = 'b1';
  });
  afterAll(async () => {
    await new Promise((resolve) => remote.close(resolve));
    fs.rmSync(folder, { recursive: true, force: true });
  });

  /** @param {ReturnType<typeof captureLogs>['logger']} logger */
  const start = (logger) =>
    startDocumentFiles({
      dir,
      remotes,
      routes: [{ route: '/employers', remote: 'employers' }],
      logger,
      planCheckMs: 20,
      intervalMs: 10,
    });

  it('are composed once nginx:config has written its plan, again when a page changes, and removed at stop', async () => {
    const { logger } = captureLogs();
    // Left by a collector killed outright: not served as this one's.
    fs.mkdirSync(path.join(dir, 'employers'));
    fs.writeFileSync(path.join(dir, 'employers', 'index.html'), 'stale');
    const documents = start(logger);
    await documents.ready;
    expect(documentOf('employers')).toBeUndefined();
    writePlan(plan);
    expect(await eventually(() => documentOf('employers'))).toContain('<h1>Hire b1</h1>');
    build = 'b2';
    await eventually(() => (documentOf('employers')?.includes('Hire b2') ? true : undefined));
    // The 404 document too: the template with the shell's own 404 files (none in this folder).
    expect(documentOf('not-found')).toBe('<!doctype html><head></head><body></body>');
    await documents.stop();
    expect(fs.readdirSync(dir)).toEqual([PLAN_FILE]);
  });

  it('keeps the last whole document while its remote fails', async () => {
    const { logger } = captureLogs();
    writePlan(plan);
    const documents = start(logger);
    try {
      await eventually(() => documentOf('employers'));
      build = 'b3';
      const down = remote.listeners('request');
      remote.removeAllListeners('request');
      remote.on('request', (_req, res) => {
        res.statusCode = 503;
        res.end();
      });
      try {
        await sleep(600);
        expect(documentOf('employers')).toContain('<h1>Hire b1</h1>');
      } finally {
        remote.removeAllListeners('request');
        for (const listener of down) remote.on('request', /** @type {http.RequestListener} */ (listener));
      }
      await eventually(() => (documentOf('employers')?.includes('Hire b3') ? true : undefined));
    } finally {
      await documents.stop();
    }
  });

  it('composes nothing from a plan that is not one, says so in one line, and starts when it is mended', async () => {
    const { logger, lines } = captureLogs();
    writePlan('{"shellRoot": "relative/path"');
    const documents = start(logger);
    try {
      await documents.ready;
      expect(lines.filter((line) => line.level === 50).map((line) => [line.msg, line.problem])).toEqual([
        ['documents not composed: nginx composes them', 'plan.json is not JSON'],
      ]);
      writePlan({ ...plan, shellRoot: 'relative/path' });
      await eventually(() => (lines.filter((line) => line.level === 50).length === 2 ? true : undefined));
      expect(lines.at(-1)?.problem).toBe('plan.json has no shellRoot, an absolute path');
      expect(fs.readdirSync(dir)).toEqual([PLAN_FILE]);
      writePlan(plan);
      expect(await eventually(() => documentOf('employers'))).toContain('<h1>Hire b1</h1>');
    } finally {
      await documents.stop();
    }
  });
});
