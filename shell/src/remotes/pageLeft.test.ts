import { pageLeft } from './pageLeft';

describe('whether the visitor is leaving the page', () => {
  it("is not so for a pagehide a script dispatched: only the browser's own leaving counts", () => {
    expect(pageLeft()).toBe(false);
    dispatchEvent(new Event('pagehide'));
    expect(pageLeft()).toBe(false);
  });
});
