// The wrong credentials a network may send, a minute at a time (DEPLOY_AUTH_FAILURES): up to the limit each is
// answered 401 with why, past it 429 with no more than when to try again. Counted per network (its /24 or /56), not
// per token: a guesser does not know which token it is guessing. rate-limiter-flexible keeps the counts, in memory (the
// API is one process per store).
//
// Counted before the credential is looked at, not after: a point is consumed, atomically, before the lookup, and given
// back once the credential proves right. Requests at once from one network therefore cannot all pass the count while
// their lookups are under way (at most the limit of them get a 401), and a lookup that throws (the database's pool
// timing out) keeps its point: a network cannot have its credentials looked at uncounted by loading the store.
//
// A right credential is taken whatever its network sent. This is where the API parts from rate-limiter-flexible's
// login example, which blocks an address past its failures for everyone: a password can be guessed, these cannot (a
// token's 32 random bytes, an issuer's signature), so refusing a right one protects nothing, while refusing a network
// shuts out everyone in it, and a CI provider's runners share their egress ranges with anyone who runs a job there: a
// few wrong tokens a minute from any job would stop every team's releases. What that costs is a lookup for each
// request of a network past its limit (a read of one token by its id, or a signature checked against the issuer's
// kept keys), as every request that carries a credential costs: a flood is for the proxy in front to limit.
const { RateLimiterMemory, RateLimiterRes } = require('rate-limiter-flexible');

/** @typedef {import('./credentials').Principal} Principal */

/**
 * @param {number} perMinute the wrong credentials a network may send in a minute
 */
function failureLimit(perMinute) {
  const counts = new RateLimiterMemory({ points: perMinute, duration: 60 });

  /**
   * The principal `prove` finds, or the refusal to answer: 401 with its problem within the network's limit, 429 past
   * it. What `prove` throws is thrown, counted as a wrong credential.
   * @param {string} network
   * @param {() => Promise<{ principal: Principal } | { problem: string }>} prove
   * @returns {Promise<{ principal: Principal } | { status: 401 | 429, problem: string }>}
   */
  async function check(network, prove) {
    const takenAt = Date.now();
    /** @type {RateLimiterRes} */
    const count = await counts.consume(network).catch((/** @type {unknown} */ refused) => {
      // The memory store refuses with the count itself; anything else is a fault of its own.
      if (refused instanceof RateLimiterRes) return refused;
      throw refused;
    });
    const within = count.consumedPoints <= perMinute;
    const proved = await prove();
    if ('principal' in proved) {
      // Given back to the minute it was taken from: once that is over, its count is gone, and a point given to the
      // next would let one more wrong credential through.
      if (Date.now() - takenAt < count.msBeforeNext) await counts.reward(network);
      return proved;
    }
    if (within) return { status: 401, problem: proved.problem };
    return {
      status: 429,
      problem: `too many wrong credentials from your network; try again in ${Math.ceil(count.msBeforeNext / 1000)} s`,
    };
  }

  return { check };
}

module.exports = { failureLimit };
