const { fromTheSite } = require('./fetchSites');

describe("the site's own requests", () => {
  it.each([
    ['none', true],
    ['same-origin', true],
    [undefined, true],
    ['same-site', false],
    ['cross-site', false],
    ['', false],
    ['None', false],
  ])('Sec-Fetch-Site %j is the site’s own: %s', (fetchSite, own) => {
    expect(fromTheSite(fetchSite)).toBe(own);
  });
});
