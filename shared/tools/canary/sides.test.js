const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { recordMaker } = require('@nativegtm/server/fieldData/recordFixtures');
const { createRecordWriter } = require('@nativegtm/server/fieldData/recordStore');
const { sidesInStore, sidesOf } = require('./sides');

const { view, vital, error } = recordMaker({
  t: 1,
  remote: 'jobs',
  route: '/featured-jobs',
  release: 'r',
  signed: true,
});
/**
 * The shell server's record of a document it composed for a side.
 * @param {'ok' | 'failed'} fragment
 * @param {{ cohort: string, doc: string, seq: number }} labels
 */
const document = (fragment, labels) =>
  /** @type {import('@nativegtm/server/fieldData/recordStore').FieldRecord} */ (
    /** @type {unknown} */ ({
      t: 1,
      type: 'document',
      route: '/featured-jobs',
      remote: 'jobs',
      signed: true,
      fragment,
      ...labels,
    })
  );

/**
 * @param {'canary' | 'control'} side
 * @param {string} doc
 * @param {number} [seq]
 */
const on = (side, doc, seq = 0) => ({ cohort: `${side}:jobs`, doc, seq });

describe("a canary's two sides, from the records", () => {
  it("counts the remote's views, vitals and errors of each side's signed documents", async () => {
    const sides = await sidesOf(
      [
        view(on('canary', 'a')),
        vital('LCP', 2000, on('canary', 'a')),
        vital('INP', 300, on('canary', 'a')),
        vital('FCP', 900, on('canary', 'a')), // not judged
        error(on('canary', 'a')),
        view(on('canary', 'a', 1)),
        view(on('control', 'b')),
        vital('LCP', 1500, on('control', 'b')),
        vital('CLS', 0.02, on('control', 'b')),
        // The server's own record of each document of the page it composed for a side.
        document('failed', on('canary', 'a')),
        document('ok', on('control', 'b')),
        document('ok', on('control', 'b')), // the same document twice
      ],
      'jobs',
    );
    expect(sides).toEqual({
      canary: { views: 2, errors: 1, documents: 1, failedFragments: 1, values: { LCP: [2000], INP: [300], CLS: [] } },
      control: { views: 1, errors: 0, documents: 1, failedFragments: 0, values: { LCP: [1500], INP: [], CLS: [0.02] } },
    });
  });

  it('leaves out unsigned records, other cohorts, other remotes, and what a document sends twice', async () => {
    const sides = await sidesOf(
      [
        view({ signed: false }),
        view({ ...on('canary', 'c'), signed: false }),
        view({ cohort: 'preview', doc: 'd', seq: 0 }),
        view(on('canary', 'e')),
        view(on('canary', 'e')), // replayed
        vital('LCP', 9000, on('canary', 'e')),
        vital('LCP', 9999, on('canary', 'e')), // a second LCP of the same view
        view({ ...on('canary', 'f'), remote: 'employers', route: '/employers' }),
        view({ cohort: 'canary:employers', doc: 'g', seq: 0 }),
        // The jobs remote threw on another remote's page: still the jobs canary's error.
        error({ ...on('canary', 'h'), page: 'employers', route: '/employers' }),
      ],
      'jobs',
    );
    expect(sides.canary).toEqual({
      views: 1,
      errors: 1,
      documents: 0,
      failedFragments: 0,
      values: { LCP: [9000], INP: [], CLS: [] },
    });
    expect(sides.control.views).toBe(0);
  });
});

describe("a canary's two sides, from the record store", () => {
  it('reads the window asked for, from every file of its hours', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'canary-sides-'));
    try {
      const at = Date.UTC(2026, 10, 26, 10, 0);
      const writer = createRecordWriter({ dir, now: () => at });
      writer.write([
        view({ ...on('canary', 'a'), t: at - 60_000 }), // before the window
        view({ ...on('canary', 'b'), t: at }),
        view({ ...on('control', 'c'), t: at }),
        vital('INP', 250, { ...on('control', 'c'), t: at }),
      ]);
      writer.flush();
      const sides = await sidesInStore(dir, 'jobs', { since: at - 1000, until: at + 1000 });
      expect([sides.canary.views, sides.control.views, sides.control.values.INP]).toEqual([1, 1, [250]]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
