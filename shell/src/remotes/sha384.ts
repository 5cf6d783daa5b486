/**
 * The integrity a browser would compute for these bytes (`sha384-<base64>`), or undefined where the page has no Web
 * Crypto: a page served neither over HTTPS nor from localhost.
 */
export async function sha384(bytes: ArrayBuffer): Promise<string | undefined> {
  if (!globalThis.crypto?.subtle) return undefined;
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-384', bytes));
  return `sha384-${btoa(String.fromCharCode(...digest))}`;
}
