// The lease of the command running a canary (canaryChanges.js), apart from the canary's state: how long it may last,
// and its renewals. A renewal only moves the lease's end: it changes nothing a visitor or a server sees, so it is no
// change of the store. It takes no store revision, writes no audit line, and tells no node and no nginx; what both
// servers read (the canary's state) stays as its last change wrote it. Each backend keeps the last renewal beside the
// state (the folder: canary-lease.json; PostgreSQL: the canary_leases table), and a read of the canary sees the state
// with its lease as renewed (withRenewal). A change of the canary (a step, a take-over, its end) writes a lease of its
// own into the state and drops the renewal.

/**
 * Whether a value is a time as the store writes them (ISO).
 * @param {unknown} value
 * @returns {value is string}
 */
const isTime = (value) => typeof value === 'string' && !Number.isNaN(Date.parse(value));

/** How long a canary command's lease lasts unless told: it renews it well before, at every look at the store. */
const LEASE_TTL_MS = 15_000;

/**
 * The leases a canary may take. Short enough that a dead command's canary is taken over within minutes; long enough
 * that a renewal (a third of the way in) is not a busy loop.
 */
const LEASE_TTL_BOUNDS = { minMs: 1000, maxMs: 5 * 60_000 };

/**
 * How far apart two machines' clocks may be for their leases to hold. A lease that ends further ahead of a reader's
 * clock than its length and this was written by no renewal on a clock this store trusts (a forged or torn record, a
 * clock years ahead): it counts as ended, so the canary can be taken over rather than held for ever.
 */
const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * When a lease runs out, as a reader whose clock says `at` counts it (ms since 1970).
 * @param {{ ttlMs: number, expiresAt: string }} lease
 * @param {number} at
 */
function leaseEnd(lease, at) {
  const end = Date.parse(lease.expiresAt);
  return end - at > lease.ttlMs + CLOCK_SKEW_MS ? at : end;
}

/**
 * Why a lease's length cannot be taken, or undefined: the one rule for a command's option, a request's and a state's.
 * @param {number} ms
 */
function leaseTtlProblem(ms) {
  const { minMs, maxMs } = LEASE_TTL_BOUNDS;
  if (Number.isInteger(ms) && ms >= minMs && ms <= maxMs) return undefined;
  return `a canary's lease lasts from ${minMs / 1000} s to ${maxMs / 60_000} min`;
}

/**
 * A renewal of the lease of one canary (its release and start) under one epoch: it counts for that lease alone.
 * @typedef {{ id: string, startedAt: string, epoch: number, expiresAt: string }} LeaseRenewal
 */

/**
 * Whether a value read from the store is a renewal (a torn or forged one is no renewal, and renews nothing).
 * @param {any} value
 * @returns {value is LeaseRenewal}
 */
const isLeaseRenewal = (value) =>
  typeof value?.id === 'string' &&
  isTime(value.startedAt) &&
  Number.isInteger(value.epoch) &&
  value.epoch >= 1 &&
  isTime(value.expiresAt);

/**
 * The canary with its lease as last renewed: a renewal of another canary or epoch (one taken over since) renews
 * nothing, and none moves a lease back.
 * @template {import('./canaryInStore').CanaryState | undefined} T
 * @param {T} canary
 * @param {unknown} renewal
 * @returns {T}
 */
function withRenewal(canary, renewal) {
  const lease = canary?.lease;
  if (!canary || !lease || !isLeaseRenewal(renewal)) return canary;
  const same = renewal.id === canary.id && renewal.startedAt === canary.startedAt && renewal.epoch === lease.epoch;
  if (!same || Date.parse(renewal.expiresAt) <= Date.parse(lease.expiresAt)) return canary;
  return { ...canary, lease: { ...lease, expiresAt: renewal.expiresAt } };
}

module.exports = {
  isTime,
  LEASE_TTL_MS,
  LEASE_TTL_BOUNDS,
  CLOCK_SKEW_MS,
  leaseEnd,
  leaseTtlProblem,
  isLeaseRenewal,
  withRenewal,
};
