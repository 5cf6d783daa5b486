import { pageLeft } from './pageLeft';

describe('whether the visitor is leaving the page', () => {
  it('is so from pagehide until the back-forward cache shows the page again', () => {
    expect(pageLeft()).toBe(false);
    dispatchEvent(new Event('pagehide'));
    expect(pageLeft()).toBe(true);
    dispatchEvent(new Event('pageshow'));
    expect(pageLeft()).toBe(false);
  });
});
