const fc = require('fast-check');
const { capNetworks, networkCap } = require('./networkCap');

describe("one network's weight in a side", () => {
  it('leaves alone networks that are each within the share', () => {
    expect(networkCap(Array(10).fill(5), 0.1)).toBe(Infinity);
    expect(networkCap([3, 2, 1], 1)).toBe(Infinity);
  });

  it("caps a network's flood at the share of what is kept, the flood left out", () => {
    // 20 real networks of 5 views each (100), and one of 10,000: it keeps 100 / 9 of them, a tenth of the 111 kept.
    const cap = networkCap([10_000, ...Array(20).fill(5)], 0.1);
    expect(cap).toBe(11);
    expect(cap / (cap + 100)).toBeLessThanOrEqual(0.1);
  });

  it('lets nothing count with fewer networks than the share allows', () => {
    expect(networkCap([1000], 0.1)).toBe(0);
    expect(networkCap(Array(9).fill(100), 0.1)).toBe(0);
  });

  it('keeps every network within the share of the total kept, whatever the counts', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 5000 }), { maxLength: 60 }),
        fc.constantFrom(0.05, 0.1, 0.25, 0.5),
        (counts, share) => {
          const cap = networkCap(counts, share);
          const kept = counts.map((count) => Math.min(count, cap));
          const total = kept.reduce((sum, count) => sum + count, 0);
          expect(kept.every((count) => count <= share * total + 1e-9)).toBe(true);
          // The largest such cap: one more would put some network over the share.
          if (Number.isFinite(cap)) {
            const more = counts.map((count) => Math.min(count, cap + 1));
            const moreTotal = more.reduce((sum, count) => sum + count, 0);
            expect(more.some((count) => count > share * moreTotal)).toBe(true);
          }
        },
      ),
    );
  });

  it("keeps each network's first items", () => {
    const byNetwork = new Map([
      ['flood', Array.from({ length: 50 }, (_, index) => `f${index}`)],
      ...Array.from({ length: 10 }, (_, net) => /** @type {[string, string[]]} */ ([`n${net}`, [`n${net}`]])),
    ]);
    const kept = capNetworks(byNetwork, 0.1);
    expect(kept.filter((item) => item.startsWith('f'))).toEqual(['f0']);
    expect(kept).toHaveLength(11);
  });
});
