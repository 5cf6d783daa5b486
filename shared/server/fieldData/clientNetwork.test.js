const { clientNetwork, networkOf, parseTrustedProxies, DEFAULT_TRUSTED_PROXIES } = require('./clientNetwork');

describe("a visitor's network", () => {
  it('is the /24 of an IPv4 address and the /56 of an IPv6 one; a mapped IPv4 address counts as IPv4', () => {
    expect(networkOf('203.0.113.77')).toBe('203.0.113.0/24');
    expect(networkOf('203.0.113.1')).toBe(networkOf('203.0.113.254'));
    expect(networkOf('203.0.114.1')).not.toBe(networkOf('203.0.113.1'));
    expect(networkOf('::ffff:203.0.113.9')).toBe('203.0.113.0/24');
    expect(networkOf('2001:db8:1234:56ff:1::1')).toBe('2001:db8:1234:5600::/56');
    expect(networkOf('2001:db8:1234:5601::1')).toBe(networkOf('2001:db8:1234:56ff::2'));
    expect(networkOf('2001:db8:1234:5701::1')).not.toBe(networkOf('2001:db8:1234:5601::1'));
  });

  it('is one "unknown" network for anything that is not an address', () => {
    for (const junk of [undefined, '', 'unknown', '999.1.1.1', '1.2.3', 'x'.repeat(10_000), '203.0.113.7, 1.1.1.1']) {
      expect(networkOf(junk)).toBe('unknown');
    }
  });

  const loopback = parseTrustedProxies(DEFAULT_TRUSTED_PROXIES);

  it("is the socket's, unless the socket is a trusted proxy", () => {
    const forwardedFor = '198.51.100.7';
    expect(clientNetwork({ address: '203.0.113.5', forwardedFor }, loopback)).toBe('203.0.113.0/24');
    expect(clientNetwork({ address: '127.0.0.1', forwardedFor }, loopback)).toBe('198.51.100.0/24');
    expect(clientNetwork({ address: '::ffff:127.0.0.1', forwardedFor }, loopback)).toBe('198.51.100.0/24');
    expect(clientNetwork({ address: '127.0.0.1', forwardedFor: undefined }, loopback)).toBe('127.0.0.0/24');
    expect(clientNetwork({ address: undefined, forwardedFor }, loopback)).toBe('unknown');
  });

  it('believes X-Forwarded-For only as far as the proxies are trusted: a forged entry before them is not', () => {
    const cdn = parseTrustedProxies('127.0.0.1, 10.0.0.0/8');
    // The visitor wrote 192.0.2.1 itself; the CDN (10.1.2.3) appended the address it saw, 198.51.100.7.
    const forwardedFor = '192.0.2.1, 198.51.100.7, 10.1.2.3';
    expect(clientNetwork({ address: '127.0.0.1', forwardedFor }, cdn)).toBe('198.51.100.0/24');
    expect(clientNetwork({ address: '127.0.0.1', forwardedFor: [forwardedFor] }, cdn)).toBe('198.51.100.0/24');
    // Without the CDN trusted, every visitor behind it is the CDN's network.
    expect(clientNetwork({ address: '127.0.0.1', forwardedFor }, loopback)).toBe('10.1.2.0/24');
    // A junk entry where an address should be is one network, whatever it says.
    expect(clientNetwork({ address: '127.0.0.1', forwardedFor: 'not-an-address' }, loopback)).toBe('unknown');
  });

  it('takes TRUSTED_PROXIES as addresses, ranges and names, and refuses anything else in one line', () => {
    expect(() => parseTrustedProxies('loopback, uniquelocal, 192.0.2.0/24, 2001:db8::/32')).not.toThrow();
    for (const bad of ['example.com', '10.0.0.0/33', '1.2.3']) {
      expect(() => parseTrustedProxies(bad)).toThrow(/^must be addresses, CIDR ranges, loopback/);
    }
  });
});
