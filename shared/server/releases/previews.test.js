/** @jest-environment node */
const { previewCookies } = require('./previews');

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
