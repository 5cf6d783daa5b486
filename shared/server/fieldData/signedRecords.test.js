const { signedOncePerDocument } = require('./signedRecords');

const base = { t: 1, route: '/', remote: 'candidates', release: 'r', device: 'mobile', nav: 'document' };
const view = (/** @type {object} */ extra = {}) => ({
  ...base,
  type: /** @type {const} */ ('view'),
  signed: true,
  doc: 'd1',
  seq: 0,
  ...extra,
});
const lcp = (/** @type {object} */ extra = {}) => ({
  ...base,
  type: /** @type {const} */ ('vital'),
  name: /** @type {const} */ ('LCP'),
  value: 900,
  signed: true,
  doc: 'd1',
  seq: 0,
  ...extra,
});
const error = (/** @type {object} */ extra = {}) => ({
  ...base,
  type: /** @type {const} */ ('error'),
  source: 'error',
  page: 'candidates',
  signed: true,
  doc: 'd1',
  seq: 0,
  ...extra,
});

describe('signedOncePerDocument', () => {
  it('keeps signed records only, one view and one value of each vital per view of a document', () => {
    const keep = signedOncePerDocument();
    const records = [
      view(),
      view(),
      lcp(),
      lcp({ value: 9000 }),
      view({ seq: 1 }),
      lcp({ seq: 1 }),
      view({ doc: 'd2' }),
      view({ signed: false, doc: undefined, seq: undefined }),
    ];
    expect(records.map(keep)).toEqual([true, false, true, false, true, true, true, false]);
  });

  it('keeps at most ten errors of a view, and no view past the twentieth of a document', () => {
    const keep = signedOncePerDocument();
    const errors = Array.from({ length: 12 }, () => keep(error()));
    expect(errors.filter(Boolean)).toHaveLength(10);
    expect(keep(view({ seq: 19 }))).toBe(true);
    expect(keep(view({ seq: 20 }))).toBe(false);
  });
});

describe('signedOncePerDocument over many documents', () => {
  it('keeps one view of each of thousands of documents, and refuses the second of each', () => {
    const keep = signedOncePerDocument();
    const docs = Array.from({ length: 5000 }, (_, index) => `d${index}`);
    expect(docs.every((doc) => keep(view({ doc })))).toBe(true);
    expect(docs.some((doc) => keep(view({ doc })))).toBe(false);
    expect(keep(lcp({ doc: 'd4999', seq: 19 }))).toBe(true);
  });

  it('refuses a view number that is not a whole number from 0', () => {
    const keep = signedOncePerDocument();
    expect([view({ seq: -1 }), view({ seq: 1.5 }), view({ seq: '0' })].map(keep)).toEqual([false, false, false]);
  });
});
