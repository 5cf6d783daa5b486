const { createHash } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { storeLayout } = require('./layout');
const { publishRelease } = require('./publish');
const { listIntegrity, rememberedFragmentManifestIntegrity, rememberedListIntegrity } = require('./releaseIntegrity');
const { fakeBuild, removeFakeBuilds } = require('./testing/fakeBuild');

/** @type {string} */
let store;
beforeEach(() => {
  store = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-release-integrity-'));
});
afterEach(() => {
  fs.rmSync(store, { recursive: true, force: true });
  removeFakeBuilds();
});

/** A published release and its list's file. */
function published() {
  const layout = storeLayout(store, 'jobs');
  const { id } = publishRelease(layout, 'jobs', fakeBuild(), { commit: null, dirty: false });
  const list = path.join(layout.release(id), 'integrity.json');
  return { layout, id, list };
}

/**
 * Changes a file of a published release, read-only as the store leaves it.
 * @param {string} file
 * @param {string} text
 */
function overwrite(file, text) {
  fs.chmodSync(path.dirname(file), 0o755);
  fs.chmodSync(file, 0o644);
  fs.writeFileSync(file, text);
}

describe("the integrity of a release's list, as the store vouches for it", () => {
  it('is the sha384 of its integrity.json, which says what its record says', () => {
    const { layout, id, list } = published();
    const expected = `sha384-${createHash('sha384').update(fs.readFileSync(list)).digest('base64')}`;
    expect(listIntegrity(layout, id)).toBe(expected);
  });

  it('is none for a list changed since its publish, one gone, and a release not in the store', () => {
    const { layout, id, list } = published();
    const text = JSON.parse(fs.readFileSync(list, 'utf8'));
    overwrite(list, JSON.stringify({ ...text, 'planted.js': `sha384-${'p'.repeat(64)}` }));
    expect(listIntegrity(layout, id)).toBeUndefined();
    fs.rmSync(list);
    expect(listIntegrity(layout, id)).toBeUndefined();
    expect(listIntegrity(layout, '0123456789abcdef')).toBeUndefined();
  });

  it('is none for a release whose record holds no list (published before records had one)', () => {
    const { layout, id } = published();
    const record = JSON.parse(fs.readFileSync(layout.record(id), 'utf8'));
    delete record.integrity;
    fs.writeFileSync(layout.record(id), JSON.stringify(record));
    expect(listIntegrity(layout, id)).toBeUndefined();
  });

  it('is read once per release when remembered, and again while there is none', () => {
    const { layout, id, list } = published();
    const remembered = rememberedListIntegrity();
    const first = remembered(layout, id);
    fs.chmodSync(path.dirname(list), 0o755);
    fs.rmSync(list);
    expect(remembered(layout, id)).toBe(first);
    expect(rememberedListIntegrity()(layout, id)).toBeUndefined();
  });

  it('remembers none for a second: a release being copied is read again then, not on every request', () => {
    const { layout, id, list } = published();
    const text = fs.readFileSync(list);
    fs.chmodSync(path.dirname(list), 0o755);
    fs.rmSync(list);
    let time = 1;
    const remembered = rememberedListIntegrity({ now: () => time });
    expect(remembered(layout, id)).toBeUndefined();
    fs.writeFileSync(list, text);
    expect(remembered(layout, id)).toBeUndefined();
    time = 1002;
    expect(remembered(layout, id)).toBe(listIntegrity(layout, id));
  });

  it('is none for a list heavier than any release has, unread', () => {
    const { layout, id, list } = published();
    overwrite(list, ' '.repeat(2 * 1024 * 1024 + 1));
    expect(listIntegrity(layout, id)).toBeUndefined();
  });
});

describe("the integrity of a release's ssr/manifest.json, as its record names it", () => {
  it("is the record's, whatever the node's copy of the files says", () => {
    const { layout, id } = published();
    const manifest = path.join(layout.release(id), 'ssr/manifest.json');
    const expected = `sha384-${createHash('sha384').update(fs.readFileSync(manifest)).digest('base64')}`;
    overwrite(manifest, '{"name":"jobs","buildId":"planted"}');
    expect(rememberedFragmentManifestIntegrity()(layout, id)).toBe(expected);
  });

  it('is none for a release recorded before lists named it, and for one not in the store', () => {
    const { layout, id } = published();
    const record = JSON.parse(fs.readFileSync(layout.record(id), 'utf8'));
    delete record.integrity['ssr/manifest.json'];
    fs.writeFileSync(layout.record(id), JSON.stringify(record));
    const remembered = rememberedFragmentManifestIntegrity();
    expect(remembered(layout, id)).toBeUndefined();
    expect(remembered(layout, '0123456789abcdef')).toBeUndefined();
  });
});
