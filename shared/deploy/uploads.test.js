/** @jest-environment node */
// A publish whose upload ends badly, through a real HTTP server: a client gone half-way (its socket closed mid-body)
// or one that stalls. Either is refused at once and logged, leaves no scratch folder, and never holds the remote's
// other changes: a rollback answers while the upload is under way, and the next changes after it.
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { setTimeout: sleep } = require('node:timers/promises');
const { ARCHIVE_SHA256_HEADER, deployPaths } = require('@nativegtm/contract/deployApi');
const { captureLogs } = require('@nativegtm/server/observability/logCapture');
const { packRelease } = require('@nativegtm/store/releaseArchive');
const { fakeBuild, removeFakeBuilds } = require('@nativegtm/store/testing/fakeBuild');
const { startDeployApi } = require('./deployServer');
const { testApiConfig } = require('./testing/apiConfig');
const { makeToken } = require('./tokens/deployTokens');
const { folderTokenStore } = require('./tokens/tokenStore');

jest.setTimeout(30_000);

/** How long a body may send nothing: long enough that a rollback answers well within it on a loaded machine. */
const IDLE_MS = 1000;
/** How long an answer "at once" may take: a request waiting behind a stuck upload waits minutes, or for ever. */
const PROMPT_MS = 5000;

/** @type {jest.SpiedFunction<typeof fs.mkdtempSync>} */
let folders;
/** @type {string} */
let storeDir;
/** @type {Awaited<ReturnType<typeof startDeployApi>>} */
let api;
/** @type {ReturnType<typeof captureLogs>} */
let logs;
/** @type {string} */
let token;

beforeEach(async () => {
  storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-api-store-'));
  // The folders the API makes, watched (and made as ever): other tests on this machine make scratch folders too.
  folders = jest.spyOn(fs, 'mkdtempSync');
  logs = captureLogs();
  const now = new Date('2026-12-01T12:00:00Z');
  const tokens = folderTokenStore(storeDir);
  const made = makeToken({
    remote: 'jobs',
    actions: ['publish', 'promote', 'skip-gate', 'rollback'],
    team: 'jobs',
    expires: new Date(now.getTime() + 86_400_000),
    createdBy: 'operator@test',
    now,
  });
  await tokens.add(made.record);
  token = made.token;
  api = await startDeployApi(testApiConfig({ storeDir, DEPLOY_BODY_IDLE_MS: IDLE_MS, LOG_LEVEL: 'info' }), {
    logger: logs.logger,
    now: () => now,
  });
});

afterEach(async () => {
  await api.close();
  folders.mockRestore();
  fs.rmSync(storeDir, { recursive: true, force: true });
  removeFakeBuilds();
});

/** @param {Buffer} bytes */
const sha256Of = (bytes) => createHash('sha256').update(bytes).digest('hex');

/**
 * A request to the API, answered within PROMPT_MS or failed.
 * @param {string} pathname
 * @param {{ method?: string, body?: Buffer | string, headers?: Record<string, string> }} [options]
 */
async function call(pathname, { method = 'POST', body, headers = {} } = {}) {
  const response = await fetch(`http://127.0.0.1:${api.port}${pathname}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...headers },
    body,
    signal: AbortSignal.timeout(PROMPT_MS),
  });
  /** @type {any} */
  const answer = await response.json();
  return { status: response.status, body: answer };
}

/** @param {Buffer} bytes */
const publish = (bytes) =>
  call(deployPaths.releases('jobs'), { body: bytes, headers: { [ARCHIVE_SHA256_HEADER]: sha256Of(bytes) } });

/** Two releases published and promoted in turn: a rollback has somewhere to go. */
async function twoPromoted() {
  for (const buildId of ['a', 'b']) {
    const { body } = await publish(await packRelease(fakeBuild({ buildId, chunk: `${buildId}.0123456789.js` })));
    const promoted = await call(deployPaths.promote('jobs', body.id), { body: JSON.stringify({ skipGate: true }) });
    expect(promoted.status).toBe(200);
  }
}

/**
 * A request that sends its headers (saying `length` bytes are coming) and `part` of its body, then neither ends nor
 * sends more until the test says.
 * @param {string} pathname
 * @param {Buffer} part
 * @param {{ length: number, headers?: Record<string, string> }} options
 */
function startRequest(pathname, part, { length, headers = {} }) {
  const request = http.request(`http://127.0.0.1:${api.port}${pathname}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-length': String(length), ...headers },
  });
  /** @type {Promise<{ status: number | undefined, body: any, at: number }>} */
  const answer = new Promise((resolve, reject) => {
    request.on('error', reject);
    request.on('response', (response) => {
      /** @type {Buffer[]} */
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode, body: JSON.parse(Buffer.concat(chunks).toString()), at: Date.now() }),
      );
    });
  });
  // A client waits for its answer a bounded time too: past it, the test fails rather than hangs.
  request.setTimeout(IDLE_MS + PROMPT_MS, () => request.destroy(new Error('no answer in time')));
  request.flushHeaders();
  request.write(part);
  return { request, answer };
}

/** The archive of a build, and its first half. */
async function halfAnArchive() {
  const whole = await packRelease(fakeBuild({ buildId: 'c', chunk: 'c.0123456789.js' }));
  return { whole, half: whole.subarray(0, Math.floor(whole.length / 2)) };
}

/** The scratch folders the API made to unpack uploads into, that are still there. */
const scratches = () =>
  folders.mock.results
    .map((result) => String(result.value))
    .filter((folder) => path.basename(folder).startsWith('nativegtm-deploy-') && fs.existsSync(folder));

/**
 * Whether `condition` holds within PROMPT_MS, looked at every few milliseconds.
 * @param {() => boolean} condition
 */
async function soon(condition) {
  for (const until = Date.now() + PROMPT_MS; Date.now() < until; await sleep(10)) {
    if (condition()) return true;
  }
  return condition();
}

/**
 * The API's log line for its answer to a request on `pathname` with `status`, if it has one yet.
 * @param {string} pathname
 * @param {number} status
 */
const logged = (pathname, status) =>
  logs.lines.find((line) => line.msg === 'request' && line.path === pathname && line.status === status);

describe('an upload cut off half-way', () => {
  it('is refused at once and logged, leaves no scratch folder, and the next changes of its remote answer', async () => {
    await twoPromoted();
    const { whole, half } = await halfAnArchive();
    const cut = startRequest(deployPaths.releases('jobs'), half, {
      length: whole.length,
      headers: { [ARCHIVE_SHA256_HEADER]: sha256Of(whole) },
    });
    cut.answer.catch(() => {});
    // The API is reading it: its scratch folder is there.
    expect(await soon(() => scratches().length === 1)).toBe(true);
    cut.request.destroy();

    expect(await call(deployPaths.rollback('jobs'))).toMatchObject({ status: 200 });
    expect(await publish(whole)).toMatchObject({ status: 201, body: { existed: false } });
    expect(await soon(() => logged(deployPaths.releases('jobs'), 400) !== undefined)).toBe(true);
    expect(logged(deployPaths.releases('jobs'), 400)).toMatchObject({
      error: 'the request was cut off before the end of its body (its client went away)',
    });
    expect(await soon(() => scratches().length === 0)).toBe(true);
  });
});

/** Starts publishing the first half of a build's archive, naming the whole, and then sends nothing more. */
async function stallingUpload() {
  const { whole, half } = await halfAnArchive();
  const upload = startRequest(deployPaths.releases('jobs'), half, {
    length: whole.length,
    headers: { [ARCHIVE_SHA256_HEADER]: sha256Of(whole) },
  });
  const lastByte = Date.now();
  // The API is reading it: its scratch folder is there.
  expect(await soon(() => scratches().length === 1)).toBe(true);
  return { whole, answer: upload.answer, lastByte };
}

describe('an upload that stalls', () => {
  it('is refused and logged once it has sent nothing for the idle bound, leaving no scratch folder', async () => {
    const { whole, answer, lastByte } = await stallingUpload();
    const refused = await answer;
    expect(refused).toMatchObject({
      status: 408,
      body: { error: `the request's body sent nothing for ${IDLE_MS} ms` },
    });
    expect(refused.at - lastByte).toBeGreaterThanOrEqual(IDLE_MS);
    expect(logged(deployPaths.releases('jobs'), 408)).toMatchObject({
      error: `the request's body sent nothing for ${IDLE_MS} ms`,
    });
    expect(await soon(() => scratches().length === 0)).toBe(true);
    expect(await publish(whole)).toMatchObject({ status: 201 });
  });

  it("holds none of its remote's changes meanwhile: a rollback answers at once", async () => {
    await twoPromoted();
    const { answer } = await stallingUpload();
    let answered = false;
    const settled = () => {
      answered = true;
    };
    answer.then(settled, settled);
    expect(await call(deployPaths.rollback('jobs'))).toMatchObject({ status: 200 });
    // The rollback did not wait for the upload to be refused.
    expect(answered).toBe(false);
    expect((await answer).status).toBe(408);
  });
});

describe("a change's options that stall", () => {
  it("hold none of its remote's changes meanwhile, and are refused once they sent nothing for the idle bound", async () => {
    await twoPromoted();
    const { body } = await call(deployPaths.releases('jobs'), { method: 'GET' });
    const promote = startRequest(deployPaths.promote('jobs', body.releases[0].id), Buffer.from('{"skipGate":'), {
      length: 32,
      headers: { 'content-type': 'application/json' },
    });
    let answered = false;
    const settled = () => {
      answered = true;
    };
    promote.answer.then(settled, settled);
    // Time for its headers to be read and its credential checked: it is waiting for the rest of its body.
    await sleep(200);
    expect(await call(deployPaths.rollback('jobs'))).toMatchObject({ status: 200 });
    expect(answered).toBe(false);
    expect(await promote.answer).toMatchObject({
      status: 408,
      body: { error: `the request's body sent nothing for ${IDLE_MS} ms` },
    });
  });
});
