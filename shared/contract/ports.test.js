/** @jest-environment node */
const { pages } = require('./pages');
const { devPortOf, portsFrom, SHELL_PACKAGE, SHELL_PORT } = require('./ports');

describe('ports', () => {
  it('are the registry ports from the shell port', () => {
    expect(portsFrom(SHELL_PORT)).toEqual({
      [SHELL_PACKAGE]: SHELL_PORT,
      ...Object.fromEntries(pages.map((page) => [page.package, page.port])),
    });
  });

  it('keep their offsets from another base', () => {
    const ports = portsFrom(4650);
    expect(ports[SHELL_PACKAGE]).toBe(4650);
    for (const page of pages) expect(ports[page.package]).toBe(4650 + page.port - SHELL_PORT);
  });

  it("put a remote's dev server clear of every port the site takes", () => {
    const site = Object.values(portsFrom(SHELL_PORT));
    const dev = pages.map(devPortOf);
    expect(new Set(dev).size).toBe(pages.length);
    for (const port of dev) expect(site).not.toContain(port);
  });
});
