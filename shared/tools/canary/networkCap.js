// How much one network may weigh in a side of a canary (sides.js): at most a share of what the side counts, so that
// views, values or documents from one place (one address, one office, one attacker) cannot decide a step. The excess
// of a network above the cap is dropped, its first records kept. The share is of what is kept, the dropped excess
// left out: a network's own flood cannot raise the bar it is held to. With fewer networks than 1 / share, nothing can
// meet it, and nothing counts.

/**
 * The most any one network may keep of a count, when each keeps min(its count, cap) and no network may keep more than
 * `share` of the total kept: the largest such cap. Networks are taken from the largest: with the k largest capped,
 * cap = share × (the others' counts) / (1 − share × k), the first k for which no other network is over it.
 * @param {Iterable<number>} counts each network's count
 * @param {number} share 0 to 1 (1: no cap)
 * @returns {number} a whole number (Infinity when no network is over it)
 */
function networkCap(counts, share) {
  const sorted = [...counts].sort((a, b) => b - a);
  let rest = sorted.reduce((sum, count) => sum + count, 0);
  for (let capped = 0; capped <= sorted.length; capped += 1) {
    const room = 1 - share * capped;
    if (room <= 0) break;
    const cap = (share * rest) / room;
    const next = sorted[capped];
    if (next === undefined || next <= cap) return capped === 0 ? Infinity : Math.floor(cap);
    rest -= next;
  }
  return 0;
}

/**
 * Keeps, of each network's items in the order they came, the first `cap` (networkCap over their counts).
 * @template T
 * @param {Map<string, T[]>} byNetwork
 * @param {number} share
 * @returns {T[]}
 */
function capNetworks(byNetwork, share) {
  const cap = networkCap(
    [...byNetwork.values()].map((items) => items.length),
    share,
  );
  return [...byNetwork.values()].flatMap((items) => (items.length > cap ? items.slice(0, cap) : items));
}

module.exports = { networkCap, capNetworks };
