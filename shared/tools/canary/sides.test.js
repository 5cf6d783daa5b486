const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { recordMaker } = require('@nativegtm/server/fieldData/recordFixtures');
const { createRecordWriter } = require('@nativegtm/server/fieldData/recordStore');
const { openFieldRecords } = require('@nativegtm/server/fieldData/fieldRecords');
const { sidesInStore, sidesOf } = require('./sides');

/** The canary judged: its key, as its documents' tokens carry it. */
const CANARY = 'mig1x2y3';
/** Counting as the canary command does, but for one network's share: none of these tests is about it but the last. */
const counting = { canary: CANARY, maxNetworkShare: 1 };

const { view, vital, error } = recordMaker({
  t: 1,
  remote: 'jobs',
  route: '/featured-jobs',
  release: 'r',
  signed: true,
  canary: CANARY,
  net: 'n0',
});
/**
 * The shell server's record of a document it composed for a side.
 * @param {'ok' | 'failed'} fragment
 * @param {{ cohort: string, doc: string, seq: number, net?: string }} labels
 */
const document = (fragment, labels) =>
  /** @type {import('@nativegtm/server/fieldData/recordStore').FieldRecord} */ (
    /** @type {unknown} */ ({
      t: 1,
      type: 'document',
      route: '/featured-jobs',
      remote: 'jobs',
      signed: true,
      canary: CANARY,
      net: 'n0',
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
      counting,
    );
    expect(sides).toEqual({
      canary: {
        views: 2,
        networks: 1,
        errors: 1,
        documents: 1,
        failedFragments: 1,
        values: { LCP: [2000], INP: [300], CLS: [] },
      },
      control: {
        views: 1,
        networks: 1,
        errors: 0,
        documents: 1,
        failedFragments: 0,
        values: { LCP: [1500], INP: [], CLS: [0.02] },
      },
    });
  });

  it('leaves out unsigned records, other cohorts, canaries or remotes, and what a document sends twice', async () => {
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
        // Documents served for an ended canary, or for none: a tab left open counts for no later canary.
        view({ ...on('canary', 'i'), canary: 'mig0aaaa' }),
        vital('LCP', 9999, { ...on('canary', 'i'), canary: 'mig0aaaa' }),
        view({ ...on('canary', 'j'), canary: undefined }),
        // The jobs remote threw on another remote's page: still the jobs canary's error.
        error({ ...on('canary', 'h'), page: 'employers', route: '/employers' }),
      ],
      'jobs',
      counting,
    );
    expect(sides.canary).toEqual({
      views: 1,
      networks: 1,
      errors: 1,
      documents: 0,
      failedFragments: 0,
      values: { LCP: [9000], INP: [], CLS: [] },
    });
    expect(sides.control.views).toBe(0);
  });
});

describe("a canary's sides, by network", () => {
  /**
   * `documents` documents of the canary side from network `net`, each one view with an LCP of `lcp`, an error, and
   * the server's record of the document.
   * @param {string} net
   * @param {number} documents
   * @param {number} lcp
   */
  const from = (net, documents, lcp) =>
    Array.from({ length: documents }, (_, index) => {
      const labels = { ...on('canary', `${net}-${index}`), net };
      return [view(labels), vital('LCP', lcp, labels), error(labels), document('ok', labels)];
    }).flat();

  it("keeps one network within its share of each of a side's counts, its first records, and counts networks", async () => {
    // Twenty real networks of five documents each (100), and one network of 1,000 poor ones.
    const real = Array.from({ length: 20 }, (_, net) => from(`real${net}`, 5, 1000)).flat();
    const sides = await sidesOf([...from('flood', 1000, 30_000), ...real], 'jobs', {
      canary: CANARY,
      maxNetworkShare: 0.1,
    });
    // The flood keeps 11 of each (100 / 9): a tenth of the 111 kept.
    expect(sides.canary).toMatchObject({ views: 111, networks: 21, errors: 111, documents: 111 });
    expect((sides.canary.values.LCP ?? []).filter((value) => value === 30_000)).toHaveLength(11);
    expect(sides.canary.values.LCP).toHaveLength(111);
    // Without a cap, the flood would be nine in ten of everything.
    const uncapped = await sidesOf([...from('flood', 1000, 30_000), ...real], 'jobs', counting);
    expect(uncapped.canary.views).toBe(1100);
  });

  it('counts nothing of a side whose views come from one network, and says how many it had', async () => {
    const sides = await sidesOf(from('cdn', 500, 1000), 'jobs', { canary: CANARY, maxNetworkShare: 0.1 });
    expect(sides.canary).toMatchObject({ views: 0, networks: 1, errors: 0, documents: 0 });
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
      const sides = await sidesInStore(
        openFieldRecords({ dir }),
        'jobs',
        { since: at - 1000, until: at + 1000 },
        counting,
      );
      expect([sides.canary.views, sides.control.views, sides.control.values.INP]).toEqual([1, 1, [250]]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
