const { DEFAULT_THRESHOLDS, DROPPED_REASON, judgeStep, thresholdsOf } = require('./verdict');
const { syntheticSide } = require('./syntheticSides');

describe("a canary step's verdict", () => {
  it('passes a canary drawn from the same data as its control, nearly always', () => {
    // A/A: 100 steps of 400 views a side, each from its own seeds. Four signals at 1 % allow about 4 chance failures.
    const verdicts = Array.from({ length: 100 }, (_, step) =>
      judgeStep({
        canary: syntheticSide({ seed: 2 * step + 1, views: 400, errors: step % 3 }),
        control: syntheticSide({ seed: 2 * step + 2, views: 400, errors: (step + 1) % 3 }),
      }),
    );
    const failed = verdicts.filter((verdict) => verdict.verdict === 'fail');
    expect(failed.length).toBeLessThanOrEqual(4);
    expect(verdicts.filter((verdict) => verdict.verdict === 'no-verdict')).toEqual([]);
  });

  it('passes identical sides, with every signal on both', () => {
    const side = syntheticSide({ seed: 7, views: 300, errors: 2 });
    const verdict = judgeStep({ canary: side, control: side });
    expect(verdict.verdict).toBe('pass');
    expect(verdict.signals.map((signal) => signal.name)).toEqual(['errors', 'INP', 'LCP', 'CLS']);
    for (const signal of verdict.signals) expect(signal.canary).toBe(signal.control);
  });

  it('gives no verdict when records were dropped for the budget, however the sides compare', () => {
    const side = syntheticSide({ seed: 7, views: 300, errors: 2 });
    expect(judgeStep({ canary: side, control: side, dropped: true })).toMatchObject({
      verdict: 'no-verdict',
      reason: DROPPED_REASON,
    });
    const worse = judgeStep({
      canary: syntheticSide({ seed: 1, views: 250, errors: 12 }),
      control: syntheticSide({ seed: 2, views: 250, errors: 0 }),
      dropped: true,
    });
    expect(worse.verdict).toBe('no-verdict');
  });

  it('fails a canary that throws, naming its error rate against live', () => {
    const verdict = judgeStep({
      canary: syntheticSide({ seed: 1, views: 250, errors: 12 }),
      control: syntheticSide({ seed: 2, views: 250, errors: 0 }),
    });
    expect(verdict.verdict).toBe('fail');
    expect(verdict.reason).toBe('errors 48.0 per 1,000 views vs 0.0 on live');
  });

  it('fails a canary whose interactions are slow, on INP', () => {
    const verdict = judgeStep({
      canary: syntheticSide({ seed: 3, views: 400, inpMs: 420 }),
      control: syntheticSide({ seed: 4, views: 400, inpMs: 120 }),
    });
    expect(verdict.verdict).toBe('fail');
    expect(verdict.reason).toMatch(/^INP p75 \d+ ms vs \d+ ms on live$/);
    expect(verdict.signals.find((signal) => signal.name === 'INP')?.pValue).toBeLessThan(1e-6);
  });

  it('fails a slower LCP, and more layout shift, each on its own signal', () => {
    const lcp = judgeStep({
      canary: syntheticSide({ seed: 5, views: 400, lcpMs: 2600 }),
      control: syntheticSide({ seed: 6, views: 400, lcpMs: 1800 }),
    });
    expect(lcp.reason).toMatch(/^LCP p75 \d+ ms vs \d+ ms on live$/);
    const cls = judgeStep({
      // A layout shift on most views, where live shifts on one in five.
      canary: syntheticSide({ seed: 5, views: 400, cls: 0.2, shifted: 0.9 }),
      control: syntheticSide({ seed: 6, views: 400, cls: 0.08 }),
    });
    expect(cls.verdict).toBe('fail');
    expect(cls.reason).toMatch(/^CLS p75 0\.\d{3} vs 0\.\d{3} on live$/);
  });

  it('has no verdict with fewer views than needed on either side, whatever the signals say', () => {
    const verdict = judgeStep({
      canary: syntheticSide({ seed: 8, views: 150, errors: 20 }),
      control: syntheticSide({ seed: 9, views: 500 }),
    });
    expect(verdict.verdict).toBe('no-verdict');
    expect(verdict.reason).toBe('not enough traffic: 150 views on the canary, 500 on live (200 each needed)');
  });

  it('passes a difference too small to matter, however certain', () => {
    // LCP 3 % slower over 5,000 views a side: the test is sure of it, the threshold (10 % and 250 ms) is not met.
    const verdict = judgeStep({
      canary: syntheticSide({ seed: 10, views: 5000, lcpMs: 1854 }),
      control: syntheticSide({ seed: 11, views: 5000, lcpMs: 1800 }),
    });
    expect(verdict.verdict).toBe('pass');
  });

  it('passes a large difference that a few values cannot tell from chance', () => {
    // Enough views, but only six interactions a side: INP's p75 may differ by far on chance alone.
    const verdict = judgeStep({
      canary: syntheticSide({ seed: 12, views: 300, interactive: 0.02, inpMs: 180 }),
      control: syntheticSide({ seed: 13, views: 300, interactive: 0.02, inpMs: 120 }),
    });
    const inp = verdict.signals.find((signal) => signal.name === 'INP');
    expect(verdict.verdict).toBe('pass');
    expect(inp?.pValue).toBeGreaterThanOrEqual(DEFAULT_THRESHOLDS.alpha);
  });

  it('fails a release whose fragment the server could not get, where it counts documents', () => {
    const documents = (/** @type {number} */ count, /** @type {number} */ failedFragments) => ({
      documents: count,
      failedFragments,
    });
    const verdict = judgeStep({
      canary: { ...syntheticSide({ seed: 16, views: 300 }), ...documents(300, 45) },
      control: { ...syntheticSide({ seed: 17, views: 300 }), ...documents(300, 0) },
    });
    expect(verdict.verdict).toBe('fail');
    expect(verdict.reason).toBe('fragments failed on 150.0 per 1,000 documents vs 0.0 on live');
    // Not counted (nginx): no signal, no verdict on it.
    const unmeasured = judgeStep({
      canary: syntheticSide({ seed: 16, views: 300 }),
      control: syntheticSide({ seed: 17, views: 300 }),
    });
    expect(unmeasured.signals.map((signal) => signal.name)).toEqual(['errors', 'INP', 'LCP', 'CLS']);
    // A failure or two is within the margin.
    const same = judgeStep({
      canary: { ...syntheticSide({ seed: 16, views: 300 }), ...documents(300, 2) },
      control: { ...syntheticSide({ seed: 17, views: 300 }), ...documents(300, 1) },
    });
    expect(same.verdict).toBe('pass');
  });

  it('takes other thresholds', () => {
    const sides = {
      canary: syntheticSide({ seed: 14, views: 120, errors: 8 }),
      control: syntheticSide({ seed: 15, views: 120 }),
    };
    expect(judgeStep(sides).verdict).toBe('no-verdict');
    expect(judgeStep(sides, { ...DEFAULT_THRESHOLDS, minViews: 100 }).verdict).toBe('fail');
  });

  it('has no verdict while either side has views from fewer networks than needed, and says why in one line', () => {
    const canary = syntheticSide({ seed: 18, views: 400, errors: 40 });
    const control = syntheticSide({ seed: 19, views: 400 });
    expect(judgeStep({ canary, control }).verdict).toBe('fail');
    for (const networks of [1, 19]) {
      const verdict = judgeStep({ canary: { ...canary, networks }, control });
      expect(verdict.verdict).toBe('no-verdict');
      expect(verdict.reason).toBe(
        `views come from ${networks} network${networks === 1 ? '' : 's'} (at least 20 needed): ` +
          'set TRUSTED_PROXIES if behind a proxy or CDN',
      );
    }
    expect(judgeStep({ canary, control: { ...control, networks: 3 } }).verdict).toBe('no-verdict');
    expect(judgeStep({ canary: { ...canary, networks: 20 }, control: { ...control, networks: 20 } }).verdict).toBe(
      'fail',
    );
  });

  it("reads the networks' thresholds from a canary's settings, or the defaults", () => {
    const settings = { stepTimeMs: 1000, minViews: 10, maxWaitMs: 0 };
    expect(thresholdsOf(settings)).toMatchObject({ minNetworks: 20, maxNetworkShare: 0.1 });
    expect(thresholdsOf({ ...settings, minNetworks: 5, networkShare: 0.25 })).toMatchObject({
      minNetworks: 5,
      maxNetworkShare: 0.25,
    });
  });
});
