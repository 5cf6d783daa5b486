import { INTEGRITY_FILE, REFUSED_INTEGRITY, parseIntegrityList } from '@nativegtm/contract/integrity';
import { overridden } from './overridden';

/**
 * Each remote's integrity list (its build's integrity.json, @nativegtm/contract/integrity), fetched before its
 * mf-manifest.json, and the folder its paths are relative to. The manifest itself, and the scripts and stylesheets the
 * federation runtime adds for a remote (its entry, the preloads of its page's chunks), carry their integrity from it;
 * the chunks the remote's own runtime loads later carry theirs from its remoteEntry.js.
 */
const lists = new Map<string, { base: string; files: Readonly<Record<string, string>> }>();

/**
 * Whether a file of this remote is loaded without integrity: in a development build, or from the dev server this
 * browser overrides the remote with (its origin only: the production remote's files stay checked whatever the notice
 * cookie, which the page's own scripts can write, says).
 */
function unchecked(remote: string, url: string): boolean {
  if (process.env.NODE_ENV !== 'production') return true;
  const override = overridden();
  return override?.remote === remote && new URL(url, document.baseURI).origin === override.origin;
}

/**
 * The integrity a file of a remote is loaded with: undefined when its files are not checked (unchecked), and
 * REFUSED_INTEGRITY when the remote's list does not name it (or there is no list): a file without one is never loaded.
 */
export function integrityFor(remote: string, url: string): string | undefined {
  if (unchecked(remote, url)) return undefined;
  const list = lists.get(remote);
  const href = new URL(url, document.baseURI).href.split(/[?#]/)[0] ?? '';
  const file = list && href.startsWith(list.base) ? href.slice(list.base.length) : undefined;
  // Its own entries only: "constructor" must not find Object's, whose text no browser reads as an integrity (and a
  // value it cannot read, it ignores: the file would load unchecked).
  return (file !== undefined && list && Object.hasOwn(list.files, file) && list.files[file]) || REFUSED_INTEGRITY;
}

/** The folder a remote's list names its files in (its manifest's), once its manifest was fetched. */
export const listBase = (remote: string): string | undefined => lists.get(remote)?.base;

/**
 * The federation runtime's fetch of a remote's manifest: the remote's integrity list first, kept for integrityFor,
 * then the manifest, with the integrity the list names. The manifest says how the entry loads and which files the page
 * needs, so it is checked like them. A list that cannot be fetched or read is kept empty: the manifest and every file
 * of that remote are refused (and the page falls back as for a remote that is down), never loaded unchecked.
 */
export async function fetchManifest(manifestUrl: string, init: RequestInit, remote: string): Promise<Response> {
  if (unchecked(remote, manifestUrl)) return fetch(manifestUrl, init);
  const base = new URL('./', new URL(manifestUrl, document.baseURI)).href;
  const files = await readList(new URL(INTEGRITY_FILE, base).href).catch((error: unknown) => {
    console.error(`[shell] Remote "${remote}": its files are refused, ${String(error)}`);
    return {};
  });
  lists.set(remote, { base, files });
  return fetch(manifestUrl, { ...init, integrity: integrityFor(remote, manifestUrl) ?? REFUSED_INTEGRITY });
}

async function readList(url: string): Promise<Record<string, string>> {
  const response = await fetch(url, { mode: 'cors', credentials: 'omit' });
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
  return parseIntegrityList(await response.text());
}

/** For tests: forget the lists. */
export function resetIntegrityLists(): void {
  lists.clear();
}
