const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { storeLayout } = require('./layout');
const { RELEASE_MANIFEST, hasRelease, rememberedReleases } = require('./releaseInStore');

const ID = '0123456789abcdef';
let store = '';
beforeEach(() => {
  store = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-store-'));
});
afterEach(() => fs.rmSync(store, { recursive: true, force: true }));

/** @param {string} id */
function writeRelease(id) {
  fs.mkdirSync(path.join(store, 'jobs', id), { recursive: true });
  fs.writeFileSync(path.join(store, 'jobs', id, RELEASE_MANIFEST), '{}');
}

describe('whether a release is in the store', () => {
  it('is its folder holding the federation manifest, under a well-formed id', () => {
    const layout = storeLayout(store, 'jobs');
    expect(hasRelease(layout, ID)).toBe(false);
    fs.mkdirSync(layout.release(ID), { recursive: true });
    // A folder without its manifest (cut short, or emptied by hand) is no release.
    expect(hasRelease(layout, ID)).toBe(false);
    writeRelease(ID);
    expect(hasRelease(layout, ID)).toBe(true);
    expect(hasRelease(layout, '../jobs/0123456789abcdef')).toBe(false);
    expect(hasRelease(storeLayout(store, 'employers'), ID)).toBe(false);
  });

  it('is remembered for up to its maximum age, then asked again', () => {
    let clock = 5000;
    const inStore = rememberedReleases({ maxAgeMs: 1000, now: () => clock });
    const layout = storeLayout(store, 'jobs');
    expect(inStore(layout, ID)).toBe(false);
    writeRelease(ID);
    clock = 6000;
    expect(inStore(layout, ID)).toBe(false);
    clock = 6001;
    expect(inStore(layout, ID)).toBe(true);
    fs.rmSync(layout.release(ID), { recursive: true });
    clock = 6500;
    expect(inStore(layout, ID)).toBe(true);
    clock = 7002;
    expect(inStore(layout, ID)).toBe(false);
  });

  it('answers what is not a release id at once, without pushing out what it remembers', () => {
    let clock = 5000;
    const inStore = rememberedReleases({ maxAgeMs: 1000, now: () => clock });
    const layout = storeLayout(store, 'jobs');
    writeRelease(ID);
    expect(inStore(layout, ID)).toBe(true);
    fs.rmSync(layout.release(ID), { recursive: true });
    for (let junk = 0; junk < 300; junk += 1) expect(inStore(layout, `../junk-${junk}`)).toBe(false);
    clock = 5500;
    // Still the remembered answer: the junk asked in between was never remembered.
    expect(inStore(layout, ID)).toBe(true);
  });
});
