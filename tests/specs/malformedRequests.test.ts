import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { shippedRemotes } from '@nativegtm/contract/remotesConfig';
import { HEADER_TIMEOUT_MS } from '@nativegtm/server/httpServer';
import { startNginx } from '../support/nginxServer';
import { rawExchange } from '../support/rawExchange';
import { rawGet } from '../support/rawGet';
import { ports as builtInPorts } from '../support/site';

// Malformed requests sent byte for byte to both servers: none may crash a server or get a 5xx, and each is answered
// or its connection closed within a bound, a slow sender included.

jest.setTimeout(120_000);

const HOST = 'Host: localhost\r\n';
const get = (target: string, headers = HOST) => `GET ${target} HTTP/1.1\r\n${headers}\r\n`;

/** Hand-picked: the request line, the target, the headers, the body framing, the encodings. */
const malformed: [string, string | Buffer][] = [
  ['not HTTP at all', 'GARBAGE\r\n\r\n'],
  ['a method alone', 'GET\r\n\r\n'],
  ['no version', 'GET /\r\n\r\n'],
  ['an unknown version', 'GET / HTTP/9.9\r\nHost: x\r\n\r\n'],
  ['an unknown method', 'BREW /employers HTTP/1.1\r\nHost: x\r\n\r\n'],
  ['no Host header', 'GET / HTTP/1.1\r\n\r\n'],
  ['two Host headers', 'GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n'],
  ['a control character in the target', get('/\u0001employers')],
  ['a NUL byte in the target', get('/\u0000')],
  ['a space in the target', get('/em ployers')],
  ['bad percent-encoding', get('/%%30%ZZ%')],
  ['an encoded NUL', get('/employers%00.js')],
  ['a backslash', get('/\\')],
  ['a backslash path', get('/\\\\evil.example/employers')],
  ['a double slash', get('//employers')],
  ['traversal', get('/../../../../etc/passwd')],
  ['encoded traversal', get('/%2e%2e/%2e%2e/etc/passwd')],
  ['an absolute-form target', get('http://evil.example/employers')],
  ['an asterisk target', 'OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n'],
  // The nginx here runs with no collector beside it: the beacon is lost, which is no fault of the visitor's.
  ['a beacon no collector answers', `POST /_field-data HTTP/1.1\r\n${HOST}Content-Length: 7\r\n\r\n{"v":1}`],
  [
    'invalid UTF-8 in the target',
    Buffer.concat([
      Buffer.from('GET /featured-jobs?role='),
      Buffer.from([0xff, 0xfe, 0xc3]),
      Buffer.from(` HTTP/1.1\r\n${HOST}\r\n`),
    ]),
  ],
  [
    'invalid UTF-8 in a header',
    Buffer.concat([
      Buffer.from(`GET / HTTP/1.1\r\n${HOST}X-Name: `),
      Buffer.from([0xc3, 0x28, 0xa0, 0xa1]),
      Buffer.from('\r\n\r\n'),
    ]),
  ],
  ['a very long target', get(`/${'a'.repeat(70_000)}`)],
  ['a very long query', get(`/featured-jobs?${'role=sdr&'.repeat(8_000)}`)],
  ['a huge header', get('/', `${HOST}X-Big: ${'a'.repeat(70_000)}\r\n`)],
  ['thousands of headers', get('/', `${HOST}${'X-Many: 1\r\n'.repeat(5_000)}`)],
  ['a header without a colon', get('/', `${HOST}Broken header\r\n`)],
  ['a header name with a space', get('/', `${HOST}Bad Name: x\r\n`)],
  ['bare LF line endings', 'GET / HTTP/1.1\nHost: x\n\n'],
  ['a bare CR inside a header', get('/', `${HOST}X-A: 1\rX-B: 2\r\n`)],
  ['a Content-Length that is not a number', get('/', `${HOST}Content-Length: abc\r\n`)],
  ['two different Content-Lengths', get('/', `${HOST}Content-Length: 1\r\nContent-Length: 2\r\n`)],
  [
    'chunked and a Content-Length (smuggling)',
    get('/', `${HOST}Transfer-Encoding: chunked\r\nContent-Length: 4\r\n`) + '0\r\n\r\n',
  ],
  ['an unknown transfer coding', get('/', `${HOST}Transfer-Encoding: gzip, chunked\r\n`) + '0\r\n\r\n'],
  ['a bad chunk size', get('/', `${HOST}Transfer-Encoding: chunked\r\n`) + 'zz\r\nabc\r\n0\r\n\r\n'],
  ['a POST to a page', `POST /employers HTTP/1.1\r\n${HOST}Content-Length: 5\r\n\r\nhello`],
  ['an Accept-Encoding made of junk', get('/', `${HOST}Accept-Encoding: ${'br;q=;,'.repeat(500)}\r\n`)],
  ['a Range made of junk', get('/remotes.json', `${HOST}Range: bytes=9-1,-,${'1-2,'.repeat(400)}\r\n`)],
  ['an If-None-Match made of junk', get('/favicon.svg', `${HOST}If-None-Match: ${'"x",'.repeat(2000)}\r\n`)],
];

interface Target {
  name: string;
  port: number;
}

const folder = mkdtempSync(join(tmpdir(), 'nativegtm-malformed-'));
const targets: Target[] = [{ name: 'the built-in server', port: builtInPorts.shell! }];
let stopNginx: (() => Promise<void>) | undefined;

beforeAll(async () => {
  // Ports B+55..B+59: see the port plan in tests/support/testSite.js.
  const ports = Object.fromEntries(Object.entries(builtInPorts).map(([name, port]) => [name, port + 55]));
  const remotesFile = join(folder, 'remotes.json');
  const remotes = shippedRemotes({ host: '127.0.0.1', portOf: (page) => ports[page.package]! });
  writeFileSync(remotesFile, JSON.stringify(remotes));
  const nginx = await startNginx({ ports, remotesFile });
  stopNginx = nginx.stop;
  targets.push({ name: 'nginx', port: ports.shell! });
});
afterAll(async () => {
  await stopNginx?.();
  rmSync(folder, { recursive: true, force: true });
});

/** Still serving: a page, as any visitor would ask for it. */
async function stillServes(port: number) {
  expect((await rawGet(port, '/employers')).status).toBe(200);
}

describe.each([0, 1])('malformed requests (%#: 0 the built-in server, 1 nginx)', (index) => {
  const target = () => targets[index]!;

  it('answers each hand-picked one with no 5xx, or closes, within 5 s', async () => {
    const results = [];
    for (const [what, request] of malformed) {
      const { status, timedOut } = await rawExchange(target().port, request, { timeoutMs: 5000 });
      results.push({ what, status, timedOut });
    }
    // nginx answers an unknown HTTP version 505 before any of its configuration can change that (HTTP's own answer
    // for it); every other 5xx is a fault.
    const expected = (what: string, status: number) => index === 1 && what === 'an unknown version' && status === 505;
    const bad = results.filter(
      ({ what, status, timedOut }) => timedOut || (status !== null && status >= 500 && !expected(what, status)),
    );
    expect(bad).toEqual([]);
    await stillServes(target().port);
  });

  it('answers generated mutations of a valid request with no 5xx, or closes, within 5 s', async () => {
    const valid = `GET /featured-jobs?role=sdr HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: gzip\r\nX-Request-Id: a1\r\n\r\n`;
    const mutation = fc.record({
      at: fc.nat({ max: valid.length - 1 }),
      cut: fc.nat({ max: 8 }),
      insert: fc.uint8Array({ maxLength: 12 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 4 }), async (mutations) => {
        let bytes = Buffer.from(valid, 'latin1');
        for (const { at, cut, insert } of mutations) {
          const position = Math.min(at, bytes.length);
          bytes = Buffer.concat([bytes.subarray(0, position), Buffer.from(insert), bytes.subarray(position + cut)]);
        }
        // Sent whole: a mutation that leaves the request unfinished is then over for the server too.
        const { status, timedOut } = await rawExchange(target().port, bytes, { timeoutMs: 5000, end: true });
        return !timedOut && (status === null || status < 500);
      }),
      { numRuns: 300 },
    );
    await stillServes(target().port);
  });

  it('answers or closes a slow sender after the header timeout, and serves others meanwhile', async () => {
    // One byte every 250 ms: never a complete request within the timeout.
    const slow = `GET /employers HTTP/1.1\r\nHost: localhost\r\nX-Slow: ${'a'.repeat(200)}`.split('');
    const pending = rawExchange(target().port, slow, { gapMs: 250, timeoutMs: HEADER_TIMEOUT_MS + 5000 });
    await stillServes(target().port);
    const { status, timedOut, ms } = await pending;
    expect({ timedOut, fiveHundred: status !== null && status >= 500 }).toEqual({
      timedOut: false,
      fiveHundred: false,
    });
    expect(ms).toBeGreaterThanOrEqual(HEADER_TIMEOUT_MS - 1000);
  });
});
