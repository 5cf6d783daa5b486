/** @jest-environment node */
const http = require('node:http');
const zlib = require('node:zlib');
const { acceptedEncoding, sendDocument } = require('./documentResponse');

/** @param {string | undefined} header */
const requestWith = (header) =>
  /** @type {import('node:http').IncomingMessage} */ (
    /** @type {unknown} */ ({ headers: header === undefined ? {} : { 'accept-encoding': header } })
  );

describe('the encoding of a document', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['gzip, deflate, br', 'br'],
    ['gzip, br', 'br'],
    ['gzip', 'gzip'],
    ['deflate', undefined],
    ['*', 'br'],
    // "Anything but brotli": q=0 means not acceptable (RFC 9110 12.4.2).
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0, *', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['gzip;q=0, br;q=0', undefined],
    ['identity;q=0, gzip;q=0, br;q=0', undefined],
  ])('Accept-Encoding %j: %s', (header, expected) => {
    expect(acceptedEncoding(requestWith(header))).toBe(expected);
  });
});

describe('sendDocument', () => {
  /** @type {http.Server} */
  let server;
  /** @type {string} */
  let origin;
  beforeAll(async () => {
    // /personal: a document with its own token, sent to one visitor only.
    server = http.createServer((req, res) =>
      sendDocument(req, res, { status: 200, html: '<p>page</p>' }, {}, { personal: req.url === '/personal' }),
    );
    await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
    origin = `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  /** @param {Record<string, string>} headers @param {string} [path] */
  const get = (headers, path = '/') =>
    new Promise((resolve, reject) =>
      http
        .get(`${origin}${path}`, { headers }, (res) => {
          /** @type {Buffer[]} */
          const chunks = [];
          res.on('data', (chunk) => chunks.push(chunk));
          res.on('end', () => resolve({ res, body: Buffer.concat(chunks) }));
        })
        .on('error', reject),
    );

  it('sends gzip to a client that refuses brotli', async () => {
    const { res, body } = /** @type {{ res: http.IncomingMessage, body: Buffer }} */ (
      await get({ 'Accept-Encoding': 'br;q=0, gzip' })
    );
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(body).toString()).toBe('<p>page</p>');
  });

  it('gives each encoding a strong validator of its own, and 304 only to the same one', async () => {
    /** @param {string} accept */
    const etagOf = async (accept) =>
      String(/** @type {{ res: http.IncomingMessage }} */ (await get({ 'Accept-Encoding': accept })).res.headers.etag);
    const [br, gzip, identity] = [await etagOf('br'), await etagOf('gzip'), await etagOf('identity')];
    expect(identity).toMatch(/^"[^"]+"$/);
    expect([br, gzip]).toEqual([`${identity.slice(0, -1)}-br"`, `${identity.slice(0, -1)}-gzip"`]);
    const held = /** @type {{ res: http.IncomingMessage }} */ (
      await get({ 'Accept-Encoding': 'br', 'If-None-Match': gzip })
    );
    expect(held.res.statusCode).toBe(200);
  });

  it('answers 304 to the same validator, whatever the request says to caches', async () => {
    const first = /** @type {{ res: http.IncomingMessage }} */ (await get({}));
    const etag = String(first.res.headers.etag);
    const again = /** @type {{ res: http.IncomingMessage }} */ (await get({ 'If-None-Match': etag }));
    expect(again.res.statusCode).toBe(304);
    const reload = /** @type {{ res: http.IncomingMessage }} */ (
      await get({ 'If-None-Match': etag, 'Cache-Control': 'no-cache' })
    );
    expect(reload.res.statusCode).toBe(304);
  });

  it('sends a personal document with no validator, and whole whatever the client holds', async () => {
    const etag = String(/** @type {{ res: http.IncomingMessage }} */ (await get({})).res.headers.etag);
    const personal = /** @type {{ res: http.IncomingMessage, body: Buffer }} */ (
      await get({ 'If-None-Match': etag }, '/personal')
    );
    expect(personal.res.statusCode).toBe(200);
    expect(personal.res.headers.etag).toBeUndefined();
    expect(personal.body.toString()).toBe('<p>page</p>');
  });
});
