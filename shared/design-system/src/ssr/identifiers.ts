/**
 * The useId prefix of a page's React root, on the server and in the browser alike: ids of the page can then never
 * equal ids of the shell's root or of another page rendered in the same document.
 */
export function pageIdentifierPrefix(remote: string): string {
  return `${remote}-`;
}
