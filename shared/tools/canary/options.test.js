/** @jest-environment node */
const fc = require('fast-check');
const { DEFAULT_STEPS } = require('@nativegtm/store/canaryChanges');
const { LEASE_TTL_MS } = require('@nativegtm/store/canaryLease');
const { canaryOptionTexts, canaryPlan } = require('./options');

describe("a canary's options, from a command line or a request", () => {
  it('leaves what is not given to the defaults, and reads what is', () => {
    expect(canaryPlan({})).toMatchObject({
      steps: DEFAULT_STEPS,
      settings: { stepTimeMs: 600_000, maxWaitMs: 600_000 },
      leaseTtlMs: LEASE_TTL_MS,
    });
    expect(canaryPlan({ steps: '10,100', 'step-time': '20s', 'network-share': '25', lease: '1m' })).toMatchObject({
      steps: [10, 100],
      settings: { stepTimeMs: 20_000, maxWaitMs: 20_000, networkShare: 0.25 },
      leaseTtlMs: 60_000,
    });
  });

  it('refuses a lease longer than five minutes, as the store would (none under a second can be written)', () => {
    for (const lease of ['6m', '1h', '999999d']) {
      expect(() => canaryPlan({ lease })).toThrow("--lease: a canary's lease lasts from 1 s to 5 min");
    }
    expect(canaryPlan({ lease: '5m' }).leaseTtlMs).toBe(300_000);
  });

  it("refuses a request's options in one line: not an object, an unknown name, not a short text", () => {
    expect(() => canaryOptionTexts([])).toThrow("a canary's options must be an object of option texts");
    expect(() => canaryOptionTexts({ proto: '1' })).toThrow('a canary takes no option "proto"');
    expect(() => canaryOptionTexts({ steps: 5 })).toThrow('--steps must be a text of at most 64 characters');
    expect(() => canaryOptionTexts({ alpha: 'x'.repeat(65) })).toThrow('--alpha must be a text of at most 64');
    expect(canaryOptionTexts(undefined)).toEqual({});
  });

  it('reads any JSON a client sends as option texts it checks, or refuses it: nothing else is thrown', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        try {
          canaryPlan(canaryOptionTexts(value));
        } catch (error) {
          expect(/** @type {Error} */ (error).name).toBe('UsageError');
        }
      }),
    );
  });
});
