const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { sideOf } = require('@nativegtm/contract/canaryBuckets');
const { storeLayout } = require('./layout');
const {
  canaryKey,
  endCanary,
  readCanary,
  runningCanary,
  thisCommand,
  writeCanary,
  writeNginxCanaryMaps,
} = require('./canaryInStore');

/** @typedef {import('./canaryInStore').CanaryState} CanaryState */

/** @type {string} */
let store;
/** @type {import('./layout').StoreLayout} */
let layout;
beforeEach(() => {
  store = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-canary-store-'));
  layout = storeLayout(store, 'jobs');
  fs.mkdirSync(layout.dir, { recursive: true });
});
afterEach(() => fs.rmSync(store, { recursive: true, force: true }));

/**
 * @param {Partial<CanaryState>} [changes]
 * @returns {CanaryState}
 */
const state = (changes = {}) => ({
  v: 1,
  id: '0123456789abcdef',
  share: 5,
  steps: [5, 25, 50, 100],
  startedAt: '2026-11-26T10:00:00.000Z',
  stepStartedAt: '2026-11-26T10:00:00.000Z',
  settings: { stepTimeMs: 600_000, minViews: 200, maxWaitMs: 600_000 },
  verdicts: [],
  command: thisCommand(),
  ...changes,
});

/**
 * The buckets nginx's map puts on `side`, as its sides.map lists them once written from the state.
 * @param {'canary' | 'control'} side
 */
const bucketsOn = (side) => {
  writeNginxCanaryMaps(layout, 'jobs');
  return nginxFile('sides.map')
    .split('\n')
    .filter((line) => line.endsWith(` ${side};`))
    .map((line) => Number(line.split(' ')[0]))
    .sort((a, b) => a - b);
};
/** @param {string} name */
const nginxFile = (name) => fs.readFileSync(path.join(layout.nginxCanary, name), 'utf8');

describe("a remote's canary in the store", () => {
  it("is none until one is written, then the state written, and nginx's map entries per bucket of each side", () => {
    expect(readCanary(layout)).toEqual({});
    writeCanary(layout, 'jobs', state({ share: 25 }));
    expect(readCanary(layout)).toEqual({ canary: state({ share: 25 }) });
    const expected = (/** @type {string} */ side) =>
      Array.from({ length: 100 }, (_, bucket) => bucket).filter((bucket) => sideOf(bucket, 'jobs', 25) === side);
    expect(bucketsOn('canary')).toEqual(expected('canary'));
    expect(bucketsOn('control')).toEqual(expected('control'));
    expect(bucketsOn('canary')).toHaveLength(25);
    // What nginx reads besides: the list for documents, and the release's own path.
    expect(nginxFile('listed.map')).toBe('listed "jobs=25";\n');
    expect(nginxFile('release.map')).toBe(`listed "releases/${state().id}/";\n`);
  });

  it('puts no one in a canary on nginx whose state the built-in server cannot use, and no one after it ends', () => {
    writeCanary(layout, 'jobs', state({ share: 25 }));
    expect(bucketsOn('canary')).toHaveLength(25);
    fs.writeFileSync(path.join(layout.canary, 'canary.json'), '{"v": 1, "id": "0123');
    expect(writeNginxCanaryMaps(layout, 'jobs')).toBe("the canary's state is not JSON");
    for (const name of ['sides.map', 'listed.map', 'release.map']) expect(nginxFile(name)).toBe('');
    writeCanary(layout, 'jobs', state({ share: 5 }));
    expect(bucketsOn('canary')).toHaveLength(5);
    endCanary(layout);
    expect(writeNginxCanaryMaps(layout, 'jobs')).toBeUndefined();
    expect(nginxFile('sides.map')).toBe('');
  });

  it('turns to each new state whole, keeping the one before for requests under way', () => {
    writeCanary(layout, 'jobs', state({ share: 5 }));
    writeCanary(layout, 'jobs', state({ share: 25 }));
    writeCanary(
      layout,
      'jobs',
      state({ share: 50, verdicts: [{ share: 25, verdict: 'pass', reason: 'ok', at: 'x' }] }),
    );
    expect(readCanary(layout).canary?.share).toBe(50);
    expect(bucketsOn('canary')).toHaveLength(50);
    expect(fs.readdirSync(path.join(layout.dir, 'canaries')).sort()).toEqual(['2', '3']);
  });

  it('is left as it was by a command killed while writing, and the unfinished state is cleared by the next write', () => {
    writeCanary(layout, 'jobs', state({ share: 5 }));
    // What a kill -9 in the middle of writing share 25 leaves: a folder the link never named, half written.
    fs.mkdirSync(path.join(layout.dir, 'canaries', '2'), { recursive: true });
    fs.writeFileSync(path.join(layout.dir, 'canaries', '2', 'canary.json'), '{"v": 1, "id": "01');
    expect(readCanary(layout).canary?.share).toBe(5);
    expect(bucketsOn('canary')).toHaveLength(5);
    writeCanary(layout, 'jobs', state({ share: 25 }));
    expect(readCanary(layout).canary?.share).toBe(25);
    expect(fs.readdirSync(path.join(layout.dir, 'canaries')).sort()).toEqual(['1', '3']);
  });

  it('ends at once: no link, no folders, and says whether one ran', () => {
    writeCanary(layout, 'jobs', state());
    expect(endCanary(layout)).toBe(true);
    expect(readCanary(layout)).toEqual({});
    expect(fs.existsSync(path.join(layout.dir, 'canaries'))).toBe(false);
    expect(endCanary(layout)).toBe(false);
  });

  it('refuses to write a state that is not one, and reads a broken one as a problem, never as a canary', () => {
    expect(() => writeCanary(layout, 'jobs', state({ id: 'latest' }))).toThrow('Not a canary state: no release id.');
    expect(() => writeCanary(layout, 'jobs', state({ share: 101 }))).toThrow(/no share/);
    const settings = state().settings;
    for (const bad of [{ minNetworks: -1 }, { networkShare: Number.NaN }, { networkShare: '0.1' }]) {
      const broken = /** @type {CanaryState['settings']} */ (/** @type {unknown} */ ({ ...settings, ...bad }));
      expect(() => writeCanary(layout, 'jobs', state({ settings: broken }))).toThrow(/no thresholds/);
    }
    writeCanary(layout, 'jobs', state());
    const file = path.join(layout.dir, 'canary', 'canary.json');
    fs.writeFileSync(file, '{"v": 1, "id": "0123');
    expect(readCanary(layout)).toEqual({ problem: "the canary's state is not JSON" });
    fs.writeFileSync(file, JSON.stringify({ ...state(), steps: 'all' }));
    expect(readCanary(layout)).toEqual({ problem: "the canary's state has no steps" });
    fs.rmSync(file);
    expect(readCanary(layout)).toEqual({ problem: 'the canary link names no state' });
  });

  it('names each canary by its start, the same through its steps and a resume, never again', () => {
    const first = state();
    expect(canaryKey(first)).toMatch(/^[0-9a-z]{1,11}$/);
    const later = { ...first, share: 50, stepStartedAt: '2026-11-26T10:10:00.000Z' };
    expect(canaryKey(later)).toBe(canaryKey(first));
    expect(canaryKey(state({ startedAt: '2026-11-26T10:00:00.001Z' }))).not.toBe(canaryKey(first));
  });

  it('is read by a server at most every check interval, a problem told once and everyone on live meanwhile', () => {
    let time = 0;
    /** @type {string[]} */
    const problems = [];
    const current = runningCanary(layout, {
      now: () => time,
      checkIntervalMs: 1000,
      onProblem: (p) => problems.push(p),
    });
    expect(current()).toBeUndefined();
    writeCanary(layout, 'jobs', state({ share: 25 }));
    expect(current()).toBeUndefined(); // read less than a second ago
    time = 1000;
    expect(current()?.share).toBe(25);
    fs.writeFileSync(path.join(layout.dir, 'canary', 'canary.json'), 'junk');
    time = 2000;
    expect(current()).toBeUndefined();
    time = 3000;
    expect(current()).toBeUndefined();
    expect(problems).toEqual(["the canary's state is not JSON"]);
  });
});
