const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { createFieldTokens, tokenKey, TOKEN_LIFETIME_SECONDS } = require('./fieldTokens');

describe('field-data tokens', () => {
  const key = Buffer.from('a'.repeat(64));
  let time = Date.UTC(2026, 10, 26);
  const tokens = createFieldTokens({ key, now: () => time });

  it('proves the document they were issued for, and its cohort, until they expire', () => {
    const token = tokens.issue('canary:jobs');
    expect(tokens.verify(token)).toEqual({ doc: token.split('.')[0], cohort: 'canary:jobs' });
    expect(tokens.verify(tokens.issue('preview'))?.cohort).toBe('preview');
    time += (TOKEN_LIFETIME_SECONDS + 1) * 1000;
    expect(tokens.verify(token)).toBeUndefined();
  });

  it('refuses a token signed with another key, altered, or not shaped like one', () => {
    const other = createFieldTokens({ key: Buffer.from('b'.repeat(64)), now: () => time }).issue('preview');
    const token = tokens.issue('control:jobs');
    const altered = `${'0'.repeat(16)}${token.slice(16)}`;
    const otherSide = token.replace('.control:jobs.', '.canary:jobs.');
    for (const forged of [other, altered, otherSide, 'x', '', undefined]) expect(tokens.verify(forged)).toBeUndefined();
  });

  it('is only issued for a cohort', () => {
    for (const cohort of ['', 'canary', 'canary:', 'canary:Jobs', 'everyone', 'preview:jobs']) {
      expect(() => tokens.issue(cohort)).toThrow(`Not a field-data cohort: ${cohort}`);
    }
  });

  it('shares one key between every process of a field-data folder, made once, readable by its owner only', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'field-key-'));
    try {
      const first = tokenKey({ dir });
      expect(tokenKey({ dir })).toEqual(first);
      expect(fs.statSync(path.join(dir, '.token-key')).mode & 0o777).toBe(0o600);
      expect(tokenKey({ dir, secret: 'configured' })).toEqual(Buffer.from('configured'));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
