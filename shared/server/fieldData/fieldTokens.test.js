const { racingProcesses } = require('@nativegtm/store/testing/racingProcesses');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { createFieldTokens, tokenKey, TOKEN_LIFETIME_SECONDS } = require('./fieldTokens');

describe('field-data tokens', () => {
  const key = Buffer.from('a'.repeat(64));
  let time = Date.UTC(2026, 10, 26);
  const tokens = createFieldTokens({ key, now: () => time });

  const network = '203.0.113.0/24';

  it('proves the document they were issued for, its cohort, network and canary, until they expire', () => {
    const token = tokens.issue({ cohort: 'canary:jobs', network, canary: 'mig1x2y3' });
    const proof = tokens.verify(token);
    expect(proof).toEqual({ doc: token.split('.')[0], cohort: 'canary:jobs', net: proof?.net, canary: 'mig1x2y3' });
    expect(tokens.verify(tokens.issue({ cohort: 'preview', network }))).toEqual({
      doc: expect.any(String),
      cohort: 'preview',
      net: proof?.net,
    });
    time += (TOKEN_LIFETIME_SECONDS + 1) * 1000;
    expect(tokens.verify(token)).toBeUndefined();
  });

  it('carries a keyed hash of the network, never the address, the same for one network under one key', () => {
    const token = tokens.issue({ cohort: 'control:jobs', network });
    expect(token).not.toContain('203.0.113');
    const net = tokens.verify(token)?.net;
    expect(net).toMatch(/^[0-9a-f]{16}$/);
    expect(tokens.verify(tokens.issue({ cohort: 'canary:jobs', network }))?.net).toBe(net);
    expect(tokens.verify(tokens.issue({ cohort: 'control:jobs', network: '203.0.114.0/24' }))?.net).not.toBe(net);
    const otherKey = createFieldTokens({ key: Buffer.from('b'.repeat(64)), now: () => time });
    expect(otherKey.verify(otherKey.issue({ cohort: 'control:jobs', network }))?.net).not.toBe(net);
  });

  it('refuses a token signed with another key, altered, or not shaped like one', () => {
    const other = createFieldTokens({ key: Buffer.from('b'.repeat(64)), now: () => time }).issue({
      cohort: 'preview',
      network,
    });
    const token = tokens.issue({ cohort: 'control:jobs', network, canary: 'mig1x2y3' });
    const [doc, expiry, cohort, net, canary, signature] = token.split('.');
    const altered = `${'0'.repeat(16)}${token.slice(16)}`;
    const otherSide = token.replace('.control:jobs.', '.canary:jobs.');
    // Another network's hash, or another canary (a tab of an ended canary claiming the next one), or none.
    const otherNet = [doc, expiry, cohort, 'f'.repeat(16), canary, signature].join('.');
    const otherCanary = [doc, expiry, cohort, net, 'mig1x2y4', signature].join('.');
    const noCanary = [doc, expiry, cohort, net, '-', signature].join('.');
    const forged = [other, altered, otherSide, otherNet, otherCanary, noCanary, 'x', '', undefined];
    for (const token of forged) expect(tokens.verify(token)).toBeUndefined();
  });

  it('is only issued for a cohort and a canary key', () => {
    for (const cohort of ['', 'canary', 'canary:', 'canary:Jobs', 'everyone', 'preview:jobs']) {
      expect(() => tokens.issue({ cohort, network })).toThrow(`Not a field-data cohort: ${cohort}`);
    }
    for (const canary of ['', '-', 'A1', 'a.b', 'x'.repeat(12)]) {
      expect(() => tokens.issue({ cohort: 'canary:jobs', network, canary })).toThrow(`Not a canary's key: ${canary}`);
    }
  });

  it('shares one key between every process of a field-data folder, made once, readable by its owner only', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'field-key-'));
    try {
      const first = tokenKey({ dir });
      expect(tokenKey({ dir })).toEqual(first);
      expect(fs.statSync(path.join(dir, '.token-key')).mode & 0o777).toBe(0o600);
      expect(first.toString()).toMatch(/^[0-9a-f]{64}$/);
      expect(fs.readdirSync(dir)).toEqual(['.token-key']);
      const configured = 'c'.repeat(32);
      expect(tokenKey({ dir, secret: configured })).toEqual(Buffer.from(configured));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  // Six Node processes start and load the module: 3 s beside a busy suite on two cores, past jest's 5 s with more.
  it('gives processes starting at once one key', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'field-key-'));
    const script = `process.stdout.write(require(${JSON.stringify(require.resolve('./fieldTokens'))}).tokenKey({ dir: process.argv[1] }).toString())`;
    try {
      const keys = await racingProcesses(6, script, [dir]);
      expect(new Set(keys)).toEqual(new Set([fs.readFileSync(path.join(dir, '.token-key'), 'utf8')]));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it('takes a key file of 64 hex digits, with or without a newline after them', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'field-key-'));
    try {
      fs.writeFileSync(path.join(dir, '.token-key'), `${'0a'.repeat(32)}\n`);
      expect(tokenKey({ dir })).toEqual(Buffer.from('0a'.repeat(32)));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ['empty (a first write cut short)', '', 'it is empty'],
    ['cut short', 'ab'.repeat(10), 'its 20 bytes are not 64 hex digits'],
    ['not hex', 'z'.repeat(64), 'its 64 bytes are not 64 hex digits'],
    ['one digit too many', 'a'.repeat(65), 'its 65 bytes are not 64 hex digits'],
    ['huge', 'a'.repeat(1 << 20), 'it is longer than 64 hex digits'],
  ])('refuses a key file that is %s, in one line naming it', (_, content, why) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'field-key-'));
    const file = path.join(dir, '.token-key');
    try {
      fs.writeFileSync(file, content);
      expect(() => tokenKey({ dir })).toThrow(
        new Error(`${file} is not a field-data key (${why}): remove it to make a new one, or set FIELD_DATA_SECRET`),
      );
      expect(fs.readFileSync(file, 'utf8')).toBe(content);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a key file it cannot read', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'field-key-'));
    try {
      fs.mkdirSync(path.join(dir, '.token-key'));
      expect(() => tokenKey({ dir })).toThrow(/\.token-key is not a field-data key \(it cannot be read: EISDIR\)/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a configured secret shorter than 32 bytes', () => {
    expect(() => tokenKey({ dir: os.tmpdir(), secret: 's'.repeat(31) })).toThrow(
      'FIELD_DATA_SECRET must be at least 32 bytes, not 31',
    );
  });
});
