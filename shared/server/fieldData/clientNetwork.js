// The network a visitor's request comes from, as a canary counts visitors (shared/tools/canary/sides.js): one network
// may weigh at most a share of a side, and a side needs views from many networks. The client's address is the
// socket's, or, when the socket is a proxy the operator trusts (TRUSTED_PROXIES, read by proxy-addr as Express reads
// `trust proxy`), the last address in X-Forwarded-For that no trusted proxy added. Its network is its /24 (IPv4) or /56
// (IPv6: what a provider gives one customer); an IPv4-mapped IPv6 address counts as IPv4. The address itself is never
// kept: a token carries a keyed hash of the network only (fieldTokens.js).
const proxyaddr = require('proxy-addr');
const ipaddr = require('ipaddr.js');

/** TRUSTED_PROXIES when unset: a proxy on this machine (nginx in front of the built-in server, or of the collector). */
const DEFAULT_TRUSTED_PROXIES = 'loopback';
/** What an address that is not one (a forged X-Forwarded-For entry) counts as: one network, for all of them. */
const UNKNOWN_NETWORK = 'unknown';
/** Prefix lengths of a network. */
const IPV4_PREFIX = 24;
const IPV6_PREFIX = 56;

/** @typedef {(address: string, hop: number) => boolean} Trust */

/**
 * TRUSTED_PROXIES as proxy-addr reads it: addresses, CIDR ranges and the names `loopback`, `linklocal`, `uniquelocal`,
 * separated by commas. Throws on anything else, naming it.
 * @param {string} text
 * @returns {Trust}
 */
function parseTrustedProxies(text) {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  try {
    return proxyaddr.compile(entries);
  } catch (error) {
    throw new Error(
      `must be addresses, CIDR ranges, loopback, linklocal or uniquelocal: ${/** @type {Error} */ (error).message}`,
    );
  }
}

/**
 * The network an address is in: `203.0.113.0/24`, `2001:db8:0:ab00::/56`, or UNKNOWN_NETWORK.
 * @param {string | undefined} address
 */
function networkOf(address) {
  if (address === undefined) return UNKNOWN_NETWORK;
  // Four-part IPv4 only: ipaddr.js also reads '1.2.3' and hex forms, which no socket or proxy writes.
  if (!ipaddr.IPv4.isValidFourPartDecimal(address) && !ipaddr.IPv6.isValid(address)) return UNKNOWN_NETWORK;
  const parsed = ipaddr.process(address);
  const prefix = parsed.kind() === 'ipv4' ? IPV4_PREFIX : IPV6_PREFIX;
  const bytes = parsed.toByteArray().map((byte, index) => {
    const kept = Math.min(8, Math.max(0, prefix - index * 8));
    return byte & (0xff << (8 - kept)) & 0xff;
  });
  return `${ipaddr.fromByteArray(bytes).toString()}/${prefix}`;
}

/**
 * A request's client's address: the socket's, or the last address in X-Forwarded-For that no trusted proxy added
 * (undefined when the socket has none: it closed).
 * @param {import('node:http').IncomingMessage} request
 * @param {Trust} trust
 * @returns {string | undefined}
 */
function clientAddress(request, trust) {
  if (request.socket.remoteAddress === undefined) return undefined;
  return proxyaddr(request, trust);
}

/**
 * The network a request's client is in.
 * @param {{ address: string | undefined, forwardedFor: string | string[] | undefined }} request address: the peer
 *   (the socket's, or the one the proxy in front says it saw); forwardedFor: its X-Forwarded-For
 * @param {Trust} trust
 */
function clientNetwork({ address, forwardedFor }, trust) {
  if (address === undefined) return UNKNOWN_NETWORK;
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor;
  const request = /** @type {import('node:http').IncomingMessage} */ (
    /** @type {unknown} */ ({ socket: { remoteAddress: address }, headers: { 'x-forwarded-for': header } })
  );
  return networkOf(proxyaddr(request, trust));
}

module.exports = { DEFAULT_TRUSTED_PROXIES, parseTrustedProxies, networkOf, clientNetwork, clientAddress };
