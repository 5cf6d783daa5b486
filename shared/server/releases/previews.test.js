/** @jest-environment node */
const { previewCookies, chosenRemotesJson } = require('./previews');

describe('the preview cookies', () => {
  it('are set for an hour, site-wide, the server’s HttpOnly, Secure on https', () => {
    expect(previewCookies('jobs.0123456789abcdef', 3600, true)).toEqual([
      'nativegtm_preview=jobs.0123456789abcdef; Max-Age=3600; Path=/; HttpOnly; Secure; SameSite=Lax',
      'nativegtm_preview_notice=jobs.0123456789abcdef; Max-Age=3600; Path=/; Secure; SameSite=Lax',
    ]);
  });

  it('are cleared with an empty value', () => {
    expect(previewCookies('', 0, false)[0]).toBe('nativegtm_preview=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax');
  });

  it("keep nginx's variables as written, for nginx to fill in", () => {
    expect(previewCookies('$nativegtm_preview_remote.$nativegtm_preview_id', 3600, false)[0]).toMatch(
      /^nativegtm_preview=\$nativegtm_preview_remote\.\$nativegtm_preview_id;/,
    );
  });
});

describe("a preview's or a canary's remotes.json", () => {
  it("points the previewed remote at its release's folder, and leaves the others", () => {
    const json = chosenRemotesJson(
      { jobs: 'https://jobs.example/mf-manifest.json', employers: 'https://employers.example/mf-manifest.json' },
      [{ remote: 'jobs', id: '0123456789abcdef' }],
    );
    expect(JSON.parse(json)).toEqual({
      jobs: 'https://jobs.example/releases/0123456789abcdef/mf-manifest.json',
      employers: 'https://employers.example/mf-manifest.json',
    });
  });

  it('moves every chosen remote, and leaves one remotes.json does not list', () => {
    const json = chosenRemotesJson({ jobs: 'https://jobs.example/v2/mf-manifest.json' }, [
      { remote: 'jobs', id: 'aaaa' },
      { remote: 'employers', id: 'bbbb' },
    ]);
    expect(JSON.parse(json)).toEqual({ jobs: 'https://jobs.example/v2/releases/aaaa/mf-manifest.json' });
  });
});
