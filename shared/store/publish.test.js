/** @jest-environment node */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');
const { storeLayout } = require('./layout');
const { filesUnder, integrityListOf, publishRelease, releaseId } = require('./publish');

/** @param {string} dir */
const releaseIdOf = (dir) => releaseId(dir, filesUnder(dir));
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
    // Listed again, as a build of those bytes would.
    fs.writeFileSync(path.join(clash, 'integrity.json'), JSON.stringify(integrityListOf(clash)));
    expect(() => publishRelease(layout, 'jobs', clash, source)).toThrow(/differs from the file of that name/);
    expect(listReleases(layout)).toHaveLength(1);
    expect(fs.readdirSync(layout.incoming)).toEqual([]);
  });

  describe("the integrity of the build's files", () => {
    const INTEGRITY = `sha384-${'A'.repeat(64)}`;
    /**
     * A build whose integrity.json is changed by `edit`, and the refusal publishing it gives (nothing published).
     * @param {(list: Record<string, string>, dir: string) => Record<string, string> | string | undefined} edit
     *   the list to write instead (text as it is), or undefined for none at all
     */
    function refusalOf(edit) {
      const layout = storeLayout(store, 'jobs');
      const build = fakeBuild();
      const file = path.join(build, 'integrity.json');
      const edited = edit(JSON.parse(fs.readFileSync(file, 'utf8')), build);
      if (edited === undefined) fs.rmSync(file);
      else fs.writeFileSync(file, typeof edited === 'string' ? edited : JSON.stringify(edited));
      let refusal;
      try {
        publishRelease(layout, 'jobs', build, source);
      } catch (error) {
        refusal = /** @type {Error} */ (error).message.replace(build, '<build>');
      }
      expect(listReleases(layout)).toEqual([]);
      // The gate's first check refuses it the same way.
      expect(metadataCheck(build, 'jobs').detail?.replace(build, '<build>')).toBe(refusal);
      return refusal;
    }

    it('records the integrity of every file a browser may load with the release', () => {
      const layout = storeLayout(store, 'jobs');
      const build = fakeBuild();
      const { id } = publishRelease(layout, 'jobs', build, source);
      expect(Object.keys(listReleases(layout)[0]?.integrity ?? {})).toEqual([
        'mf-manifest.json',
        'page.0123456789.js',
        'remoteEntry.js',
        'ssr/manifest.json',
      ]);
      expect(listReleases(layout)[0]?.id).toBe(id);
    });

    it('refuses a build without a list, or with one stripped, forged or of another form', () => {
      expect(refusalOf(() => undefined)).toBe("<build> lists no file's integrity: integrity.json is missing");
      expect(refusalOf(() => ({}))).toBe(
        "<build>'s integrity.json does not list mf-manifest.json, page.0123456789.js, remoteEntry.js (and 1 more): browsers would refuse them",
      );
      expect(refusalOf(() => 'not json')).toBe('<build>: integrity.json is not JSON');
      expect(refusalOf((list) => ({ ...list, 'remoteEntry.js': 'sha256-abc' }))).toBe(
        '<build>: integrity.json: remoteEntry.js has no sha384 integrity',
      );
      expect(refusalOf((list) => ({ ...list, '../../etc/passwd': INTEGRITY }))).toBe(
        '<build>: integrity.json names a path outside the build: ../../etc/passwd',
      );
    });

    it('refuses a list that names a file the build does not have, or other bytes than the file has', () => {
      expect(refusalOf((list) => ({ ...list, 'gone.0123456789.js': INTEGRITY }))).toBe(
        "<build>'s integrity.json names files the build does not have: gone.0123456789.js",
      );
      expect(refusalOf((list) => ({ ...list, 'remoteEntry.js': INTEGRITY }))).toBe(
        "<build>'s integrity.json does not match the bytes of remoteEntry.js",
      );
      // A file changed after the build wrote the list: what a tampered artifact looks like.
      expect(
        refusalOf((list, dir) => {
          fs.appendFileSync(path.join(dir, 'page.0123456789.js'), ';window.__tampered = 1;');
          return list;
        }),
      ).toBe("<build>'s integrity.json does not match the bytes of page.0123456789.js");
    });

    it("refuses a file's compressed copy that is not the file compressed, which the servers would send", () => {
      expect(
        refusalOf((list, dir) => {
          fs.writeFileSync(path.join(dir, 'remoteEntry.js.gz'), zlib.gzipSync('/* an older build */'));
          fs.writeFileSync(path.join(dir, 'remoteEntry.js.br'), zlib.brotliCompressSync('/* an older build */'));
          return list;
        }),
      ).toBe("<build> has compressed copies that are not their files' bytes: remoteEntry.js.gz, remoteEntry.js.br");
      // A bomb is inflated no further than one byte past the file.
      expect(
        refusalOf((list, dir) => {
          fs.writeFileSync(path.join(dir, 'page.0123456789.js.gz'), zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024)));
          return list;
        }),
      ).toBe("<build> has compressed copies that are not their files' bytes: page.0123456789.js.gz");
      expect(
        refusalOf((list, dir) => {
          fs.writeFileSync(path.join(dir, 'remoteEntry.js.gz'), 'not gzip');
          return list;
        }),
      ).toBe("<build> has compressed copies that are not their files' bytes: remoteEntry.js.gz");
      // The list's own copy, left from before it was written again.
      expect(
        refusalOf((list, dir) => {
          fs.writeFileSync(path.join(dir, 'integrity.json.gz'), zlib.gzipSync('{}'));
          return list;
        }),
      ).toBe("<build> has compressed copies that are not their files' bytes: integrity.json.gz");
    });

    it("refuses server-rendered HTML that ssr/manifest.json's list does not name with its bytes", () => {
      /**
       * The build's page manifest edited, and its own entry in integrity.json written again to match, as a build
       * of that manifest would: only the manifest's list is wrong.
       * @param {(manifest: Record<string, unknown>, dir: string) => Record<string, unknown>} edit
       */
      const manifestEdited = (edit) =>
        refusalOf((_list, dir) => {
          const file = path.join(dir, 'ssr/manifest.json');
          fs.writeFileSync(file, JSON.stringify(edit(JSON.parse(fs.readFileSync(file, 'utf8')), dir)));
          return integrityListOf(dir);
        });
      expect(manifestEdited((manifest) => ({ ...manifest, integrity: undefined }))).toBe(
        '<build>: ssr/manifest.json lists no integrity of the server-rendered files',
      );
      expect(manifestEdited((manifest) => ({ ...manifest, integrity: {} }))).toBe(
        "<build>'s ssr/manifest.json's integrity does not list ssr/body/index.html: the document server would leave them out",
      );
      expect(
        manifestEdited((manifest, dir) => {
          fs.appendFileSync(path.join(dir, 'ssr/body/index.html'), '<script src="/x.js"></script>');
          return manifest;
        }),
      ).toBe("<build>'s ssr/manifest.json's integrity does not match the bytes of ssr/body/index.html");
      expect(
        manifestEdited((manifest) => ({
          ...manifest,
          integrity: { .../** @type {object} */ (manifest['integrity']), 'ssr/body/gone.html': INTEGRITY },
        })),
      ).toBe("<build>'s ssr/manifest.json's integrity names files the build does not have: ssr/body/gone.html");
      // The manifest changed after the list was written: the list's own entry for it is checked.
      expect(
        refusalOf((list, dir) => {
          fs.appendFileSync(path.join(dir, 'ssr/manifest.json'), ' ');
          return list;
        }),
      ).toBe("<build>'s integrity.json does not match the bytes of ssr/manifest.json");
    });

    it('refuses a list with entries named like what every object has: exactly the files, nothing more', () => {
      expect(refusalOf((list) => ({ ...list, constructor: INTEGRITY }))).toBe(
        "<build>'s integrity.json names files the build does not have: constructor",
      );
    });

    it('copies a release with the integrity its record names, and refuses files whose list differs from it', () => {
      const build = fakeBuild();
      const layout = storeLayout(store, 'jobs');
      const { id } = publishRelease(layout, 'jobs', build, source);
      const record = /** @type {import('./records').ReleaseRecord} */ (listReleases(layout)[0]);
      const copy = storeLayout(fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-copy-')), 'jobs');
      const forged = { ...record, integrity: { ...record.integrity, 'remoteEntry.js': INTEGRITY } };
      expect(() => publishRelease(copy, 'jobs', build, { ...source, record: forged })).toThrow(
        `the files of release ${id} of jobs do not have the integrity its record names`,
      );
      // A release recorded before records held a list is copied as recorded: the store refuses to make it live.
      const { integrity, ...before } = record;
      expect(integrity).toBeDefined();
      fs.rmSync(path.join(build, 'integrity.json'));
      const older = publishRelease(copy, 'jobs', build, { ...source, record: { ...before, id: releaseIdOf(build) } });
      expect(listReleases(copy).map((copied) => [copied.id, copied.integrity])).toEqual([[older.id, undefined]]);
      fs.rmSync(path.dirname(copy.dir), { recursive: true, force: true });
    });

    it('copies a release recorded before lists named its server-rendered files, checked as far as its record goes', () => {
      const build = fakeBuild();
      const manifestFile = path.join(build, 'ssr/manifest.json');
      const { integrity, ...manifest } = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
      expect(integrity).toBeDefined();
      fs.writeFileSync(manifestFile, JSON.stringify(manifest));
      const { 'ssr/manifest.json': listed, ...older } = integrityListOf(build);
      expect(listed).toBeDefined();
      fs.writeFileSync(path.join(build, 'integrity.json'), JSON.stringify(older));
      const layout = storeLayout(store, 'jobs');
      const id = releaseIdOf(build);
      const record = { id, remote: 'jobs', created: '2026-01-01T00:00:00.000Z', by: 'ci', buildId: 'build-1' };
      const given = { ...record, commit: null, dirty: false, hashedFiles: [], integrity: older };
      expect(publishRelease(layout, 'jobs', build, { ...source, record: given }).id).toBe(id);
      // Its other files are still checked against the record.
      const forged = fakeBuild({ buildId: 'build-2' });
      fs.writeFileSync(path.join(forged, 'ssr/manifest.json'), JSON.stringify({ ...manifest, buildId: 'build-2' }));
      fs.writeFileSync(path.join(forged, 'integrity.json'), JSON.stringify(older));
      const other = { ...given, id: releaseIdOf(forged), buildId: 'build-2' };
      expect(() => publishRelease(layout, 'jobs', forged, { ...source, record: other })).toThrow(
        /integrity.json does not match the bytes of remoteEntry.js/,
      );
    });
  });
});
