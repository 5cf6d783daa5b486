// How the soak (tests/soak/soak.js) judges whether memory stayed flat: plain functions, no process.
import { memoryGrowth } from '../soak/memory';
import { childrenOf, residentBytes } from '../soak/processes';

describe("the soak's memory check", () => {
  it('compares the medians of the first and the last window, so one garbage collection does not decide', () => {
    const flat = [100, 101, 140, 100, 99, 100, 102, 100, 60, 101, 100, 100];
    expect(memoryGrowth(flat, 4)).toEqual({ first: 100.5, last: 100, ratio: 100 / 100.5 });
    const leaking = Array.from({ length: 12 }, (_, index) => 100 + index * 5);
    expect(memoryGrowth(leaking, 4)!.ratio).toBeCloseTo(147.5 / 107.5);
  });

  it('says nothing with fewer samples than two windows', () => {
    expect(memoryGrowth([1, 2, 3], 2)).toBeUndefined();
    expect(memoryGrowth([1, 2], 0)).toBeUndefined();
  });

  it('reads the resident memory and the children of a live process, and nothing of one that is gone', () => {
    expect(residentBytes(process.pid)).toBeGreaterThan(10e6);
    expect(residentBytes(2 ** 22 + 1)).toBeUndefined();
    expect(childrenOf(2 ** 22 + 1)).toEqual([]);
  });
});
