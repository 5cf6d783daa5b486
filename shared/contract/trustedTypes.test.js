const { trustedTypesDirectives, trustedTypesPolicies } = require('./trustedTypes');

describe('Trusted Types', () => {
  it("enforces them for scripts and allows exactly the site's policies, each created more than once if need be", () => {
    expect(trustedTypesDirectives()).toEqual([
      "require-trusted-types-for 'script'",
      "trusted-types nativegtm-webpack nativegtm-federation nativegtm-boot 'allow-duplicates'",
    ]);
    // Policy names are CSP tokens: no spaces, no quotes.
    for (const name of Object.values(trustedTypesPolicies)) expect(name).toMatch(/^[a-z][a-z-]+$/);
  });
});
