const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { liveAndPrevious, readHistory } = require('./liveHistory');
const { writeLivePointer } = require('./livePointer');
const { RELEASE_MANIFEST } = require('./releaseInStore');
const { storeLayout } = require('./layout');

const A = 'aaaaaaaaaaaaaaaa';
const B = 'bbbbbbbbbbbbbbbb';
const C = 'cccccccccccccccc';

/** @type {string} */
let store;
/** @type {import('./layout').StoreLayout} */
let layout;
beforeEach(() => {
  store = fs.mkdtempSync(path.join(os.tmpdir(), 'live-history-'));
  layout = storeLayout(store, 'jobs');
  for (const id of [A, B, C]) {
    fs.mkdirSync(layout.release(id), { recursive: true });
    fs.writeFileSync(path.join(layout.release(id), RELEASE_MANIFEST), '{}');
  }
});
afterEach(() => fs.rmSync(store, { recursive: true, force: true }));

/** @param {{ action: 'promote' | 'rollback', id: string, from: string | null }[]} changes */
function history(changes) {
  const lines = changes.map((change, index) => JSON.stringify({ at: `2026-11-26T09:0${index}:00Z`, ...change }));
  fs.writeFileSync(layout.history, `${lines.join('\n')}\n`);
}

describe('liveAndPrevious', () => {
  it('takes the live release from the pointer and the previous one from the history', () => {
    history([
      { action: 'promote', id: A, from: null },
      { action: 'promote', id: B, from: A },
      { action: 'promote', id: C, from: B },
    ]);
    writeLivePointer(layout, C);
    expect(liveAndPrevious(layout)).toEqual({ live: C, problem: undefined, previous: B, replaced: B });
  });

  it('unwinds a rollback: the previous release is the one before the live one again', () => {
    history([
      { action: 'promote', id: A, from: null },
      { action: 'promote', id: B, from: A },
      { action: 'promote', id: C, from: B },
      { action: 'rollback', id: B, from: C },
    ]);
    writeLivePointer(layout, B);
    expect(liveAndPrevious(layout)).toMatchObject({ live: B, previous: A, replaced: C });
  });

  it('takes the release live before a promote from the promote when the line that made it live was lost', () => {
    history([
      { action: 'promote', id: A, from: null },
      // The promote of B was cut short by a crash, and skipped.
      { action: 'promote', id: C, from: B },
    ]);
    writeLivePointer(layout, C);
    expect(liveAndPrevious(layout)).toMatchObject({ live: C, previous: B });
  });

  it('names nothing in a store without a pointer or history', () => {
    expect(liveAndPrevious(storeLayout(store, 'candidates'))).toEqual({
      live: undefined,
      problem: undefined,
      previous: undefined,
      replaced: undefined,
    });
  });
});

describe('readHistory', () => {
  it('skips a line cut short', () => {
    history([{ action: 'promote', id: A, from: null }]);
    fs.appendFileSync(layout.history, '{"at":"2026');
    expect(readHistory(layout)).toEqual([expect.objectContaining({ id: A })]);
  });

  it('skips lines that parse but are not a change of the live pointer', () => {
    history([{ action: 'promote', id: A, from: null }]);
    fs.appendFileSync(
      layout.history,
      ['null', '7', '{}', '{"action":"promote","id":"../../etc","from":null,"at":"x"}', '{"action":"rm","id":"a"}']
        .map((line) => `${line}\n`)
        .join(''),
    );
    writeLivePointer(layout, A);
    expect(readHistory(layout)).toEqual([expect.objectContaining({ id: A })]);
    expect(liveAndPrevious(layout)).toMatchObject({ live: A, previous: undefined });
  });
});
