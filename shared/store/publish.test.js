/** @jest-environment node */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { storeLayout } = require('./layout');
const { publishRelease } = require('./publish');
const { metadataCheck } = require('./releaseFiles');
const { listReleases } = require('./records');
const { fakeBuild, removeFakeBuilds } = require('./testing/fakeBuild');

const source = { commit: 'abc', dirty: false };
/** @type {string} */
let store;
beforeEach(() => {
  store = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-store-'));
});
afterEach(() => {
  fs.rmSync(store, { recursive: true, force: true });
  removeFakeBuilds();
});

describe('publishing a release', () => {
  it('names it by its files, keeps them read-only and links its hashed files into assets/', () => {
    const layout = storeLayout(store, 'jobs');
    const build = fakeBuild();
    const { id, existed } = publishRelease(layout, 'jobs', build, source);
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(existed).toBe(false);
    const manifest = path.join(layout.release(id), 'mf-manifest.json');
    expect(fs.statSync(manifest).mode & 0o222).toBe(0);
    expect(fs.statSync(path.join(layout.assets, 'page.0123456789.js')).ino).toBe(
      fs.statSync(path.join(layout.release(id), 'page.0123456789.js')).ino,
    );
    expect(listReleases(layout)).toEqual([
      expect.objectContaining({
        id,
        remote: 'jobs',
        buildId: 'build-1',
        commit: 'abc',
        hashedFiles: ['page.0123456789.js'],
      }),
    ]);
  });

  it('gives the same files the same id, and publishes them once', () => {
    const layout = storeLayout(store, 'jobs');
    const first = publishRelease(layout, 'jobs', fakeBuild(), source);
    const again = publishRelease(layout, 'jobs', fakeBuild(), { commit: 'def', dirty: true });
    expect(again).toEqual({ id: first.id, existed: true });
    expect(listReleases(layout)).toHaveLength(1);
    expect(publishRelease(layout, 'jobs', fakeBuild({ buildId: 'build-2' }), source).id).not.toBe(first.id);
  });

  it.each([
    ['a build of another remote', () => fakeBuild({ remote: 'employers' }), /a build of "employers", not of "jobs"/],
    ['a folder without a manifest', () => fs.mkdtempSync(path.join(store, 'empty-')), /mf-manifest.json is missing/],
  ])('refuses %s, leaving no release behind', (_, build, message) => {
    const layout = storeLayout(store, 'jobs');
    expect(() => publishRelease(layout, 'jobs', build(), source)).toThrow(message);
    expect(listReleases(layout)).toEqual([]);
  });

  it('refuses a build whose server-rendered files hold SSI directives it does not write, naming each', () => {
    const layout = storeLayout(store, 'jobs');
    const build = fakeBuild();
    fs.writeFileSync(path.join(build, 'ssr/head.html'), '<title>Jobs</title><!--# echo var="cookie_session" -->');
    fs.writeFileSync(
      path.join(build, 'ssr/body/index.html'),
      '<div><!--#include virtual="/_field-data/token" --></div>',
    );
    expect(() => publishRelease(layout, 'jobs', build, source)).toThrow(
      'has SSI directives its build does not write, which the servers would run: ' +
        'ssr/head.html: <!--# echo var="cookie_session" -->; ssr/body/index.html: <!--#include virtual="/_field-data/token" -->',
    );
    expect(listReleases(layout)).toEqual([]);
    // The gate's first check is the same.
    expect(metadataCheck(build, 'jobs')).toMatchObject({
      ok: false,
      detail: expect.stringContaining('cookie_session'),
    });
  });

  it('leaves no release behind when it stops half-way (a hashed name reused with other bytes)', () => {
    const layout = storeLayout(store, 'jobs');
    publishRelease(layout, 'jobs', fakeBuild(), source);
    const clash = fakeBuild({ buildId: 'build-2' });
    fs.writeFileSync(path.join(clash, 'page.0123456789.js'), 'other bytes');
    expect(() => publishRelease(layout, 'jobs', clash, source)).toThrow(/differs from the file of that name/);
    expect(listReleases(layout)).toHaveLength(1);
    expect(fs.readdirSync(layout.incoming)).toEqual([]);
  });
});
