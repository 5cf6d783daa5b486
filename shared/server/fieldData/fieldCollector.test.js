const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { createFieldCollector } = require('./fieldCollector');
const { createFieldTokens, tokenKey } = require('./fieldTokens');
const { silentLogger } = require('../observability/logger');
const { canaryKey, endCanary, thisCommand, writeCanary } = require('@nativegtm/store/canaryInStore');
const { storeLayout } = require('@nativegtm/store/layout');

/** @type {string} */
let scratch;
beforeEach(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-collector-'));
});
afterEach(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** @param {string} startedAt */
const canaryState = (startedAt) => ({
  v: /** @type {const} */ (1),
  id: '0123456789abcdef',
  share: 50,
  steps: [50, 100],
  startedAt,
  stepStartedAt: startedAt,
  settings: { stepTimeMs: 600_000, minViews: 200, maxWaitMs: 600_000 },
  verdicts: [],
  command: thisCommand(),
});

describe("a private document's token, as both servers issue it", () => {
  const dir = () => path.join(scratch, 'field-data');
  const storeDir = () => path.join(scratch, 'releases');
  /** @param {string} [trustedProxies] */
  const collector = (trustedProxies) =>
    createFieldCollector({
      dir: dir(),
      storeDir: storeDir(),
      trustedProxies,
      liveBuilds: () => new Map(),
      logger: silentLogger(),
    });
  const proof = (/** @type {string} */ token) => createFieldTokens({ key: tokenKey({ dir: dir() }) }).verify(token);
  /**
   * @param {string} address
   * @param {string} [forwardedFor]
   */
  const visitor = (address, forwardedFor) => ({ address, forwardedFor });

  it('names the running canary of its side, and none once it has ended or for a preview', () => {
    const layout = storeLayout(storeDir(), 'jobs');
    fs.mkdirSync(layout.dir, { recursive: true });
    const first = canaryState('2026-11-26T10:00:00.000Z');
    writeCanary(layout, 'jobs', first);
    const issuing = collector();
    expect(proof(issuing.issueToken('canary:jobs', visitor('203.0.113.5')))?.canary).toBe(canaryKey(first));
    expect(proof(issuing.issueToken('control:jobs', visitor('203.0.113.5')))?.canary).toBe(canaryKey(first));
    expect(proof(issuing.issueToken('preview', visitor('203.0.113.5')))?.canary).toBeUndefined();
    // A remote the site does not have is never looked up in the store.
    expect(proof(issuing.issueToken('canary:nothing', visitor('203.0.113.5')))?.canary).toBeUndefined();

    endCanary(layout);
    const second = canaryState('2026-11-26T11:00:00.000Z');
    writeCanary(layout, 'jobs', second);
    const later = collector();
    expect(canaryKey(second)).not.toBe(canaryKey(first));
    expect(proof(later.issueToken('canary:jobs', visitor('203.0.113.5')))?.canary).toBe(canaryKey(second));
    endCanary(layout);
    expect(proof(collector().issueToken('canary:jobs', visitor('203.0.113.5')))?.canary).toBeUndefined();
  });

  it("signs the visitor's network: X-Forwarded-For only from a trusted proxy", () => {
    const net = (/** @type {string} */ token) => proof(token)?.net;
    const loopback = collector();
    const direct = net(loopback.issueToken('preview', visitor('203.0.113.5')));
    expect(net(loopback.issueToken('preview', visitor('203.0.113.200')))).toBe(direct);
    expect(net(loopback.issueToken('preview', visitor('203.0.114.5')))).not.toBe(direct);
    // Through a proxy on loopback, the address it forwards; from anywhere else, X-Forwarded-For is the visitor's own.
    expect(net(loopback.issueToken('preview', visitor('127.0.0.1', '203.0.113.9')))).toBe(direct);
    expect(net(loopback.issueToken('preview', visitor('198.51.100.1', '203.0.113.9')))).not.toBe(direct);
    const behindCdn = collector('loopback, 198.51.100.0/24');
    expect(net(behindCdn.issueToken('preview', visitor('198.51.100.1', '203.0.113.9')))).toBe(direct);
  });
});
