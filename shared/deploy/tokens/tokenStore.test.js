/** @jest-environment node */
// Deploy tokens kept beside the store, on both backends: made, found, listed, revoked at once, and only their hash kept.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startPostgres } = require('@nativegtm/store/testing/postgres');
const { openDatabase } = require('@nativegtm/store/postgres/database');
const { checkToken, makeToken } = require('./deployTokens');
const { folderTokenStore, postgresTokenStore } = require('./tokenStore');

jest.setTimeout(60_000);

/** @type {Awaited<ReturnType<typeof startPostgres>>} */
let postgres;
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(() => postgres?.stop());

const now = new Date('2026-12-01T12:00:00Z');
const made = (/** @type {string} */ remote = 'jobs') =>
  makeToken({
    remote,
    actions: ['publish', 'preview'],
    team: 'jobs-team',
    expires: new Date(now.getTime() + 86_400_000),
    createdBy: 'operator@host',
    now,
  });

const backends = {
  folder: async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-tokens-'));
    return {
      tokens: folderTokenStore(dir),
      stored: () => fs.readFileSync(path.join(dir, '.deploy', 'tokens.json'), 'utf8'),
      dispose: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  },
  postgres: async () => {
    const database = openDatabase(await postgres.migratedDatabase('tokens'));
    return {
      tokens: postgresTokenStore(database, 'the database'),
      stored: async () =>
        JSON.stringify(
          await database.transaction(async (client) => (await client.query('SELECT * FROM deploy_tokens')).rows),
        ),
      dispose: async () => {},
    };
  },
};

describe.each(Object.entries(backends))('deploy tokens on the %s backend', (_, open) => {
  it('keeps a token as its hash only, finds it, lists it, and revokes it at once', async () => {
    const { tokens, stored, dispose } = await open();
    try {
      const first = made();
      const second = made('candidates');
      await tokens.add(first.record);
      await tokens.add(second.record);
      expect(await tokens.find(first.record.id)).toEqual(first.record);
      expect((await tokens.list()).map((record) => record.id).sort()).toEqual(
        [first.record.id, second.record.id].sort(),
      );
      // The secret itself is nowhere in the store.
      expect(await stored()).not.toContain(first.token.slice(17));
      const find = async () => checkToken(first.token, () => undefined, now);
      expect(await find()).toEqual({ problem: 'the token is not one this API made' });

      const revoked = await tokens.revoke(first.record.id, now);
      expect(revoked.revoked).toBe(now.toISOString());
      const record = await tokens.find(first.record.id);
      expect(checkToken(first.token, () => record, now)).toEqual({
        problem: `token ${first.record.id} was revoked at ${now.toISOString()}`,
      });
      // Revoking twice keeps the first time.
      expect((await tokens.revoke(first.record.id, new Date())).revoked).toBe(now.toISOString());
      await expect(tokens.revoke('000000000000', now)).rejects.toThrow(/^there is no token 000000000000 in /);
      expect(await tokens.find('000000000000')).toBeUndefined();
    } finally {
      await tokens.close();
      await dispose();
    }
  });
});

describe('a token', () => {
  const { token, record } = made();
  it('is proved by its secret only, in constant time, and not past its expiry', () => {
    expect(checkToken(token, () => record, now)).toEqual({ record });
    expect(checkToken(`${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`, () => record, now)).toEqual({
      problem: 'the token is not one this API made',
    });
    expect(checkToken('ngd_short', () => record, now)).toEqual({ problem: 'the token is not one this API made' });
    expect(checkToken(token, () => record, new Date(record.expires))).toEqual({
      problem: `token ${record.id} expired at ${record.expires}`,
    });
  });

  it('is refused where the folder holds no list of tokens, and a record it cannot read reaches nothing', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-tokens-'));
    try {
      fs.mkdirSync(path.join(dir, '.deploy'));
      const file = path.join(dir, '.deploy', 'tokens.json');
      fs.writeFileSync(file, JSON.stringify([{ ...record, actions: ['everything'] }, record]));
      expect(await folderTokenStore(dir).list()).toEqual([record]);
      fs.writeFileSync(file, '{}');
      await expect(folderTokenStore(dir).list()).rejects.toThrow(/is not a list of tokens/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
