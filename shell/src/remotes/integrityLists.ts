import { INTEGRITY_FILE, REFUSED_INTEGRITY, parseIntegrityList } from '@nativegtm/contract/integrity';
import { overridden } from './overridden';

/**
 * Each remote's integrity list (its build's integrity.json, @nativegtm/contract/integrity), fetched beside its
 * mf-manifest.json, and the folder its paths are relative to. The scripts and stylesheets the federation runtime adds
 * for a remote (its entry, the preloads of its page's chunks) carry their integrity from it; the chunks the remote's
 * own runtime loads later carry theirs from its remoteEntry.js.
 */
const lists = new Map<string, { base: string; files: Readonly<Record<string, string>> }>();

/** Whether this remote's files are loaded without integrity: a development build, or a dev server overriding it. */
function unchecked(remote: string): boolean {
  return process.env.NODE_ENV !== 'production' || overridden()?.remote === remote;
}

/**
 * The integrity a file of a remote is loaded with: undefined when its files are not checked (unchecked), and
 * REFUSED_INTEGRITY when the remote's list does not name it (or there is no list): a file without one is never loaded.
 */
export function integrityFor(remote: string, url: string): string | undefined {
  if (unchecked(remote)) return undefined;
  const list = lists.get(remote);
  const href = new URL(url, document.baseURI).href.split(/[?#]/)[0] ?? '';
  const file = list && href.startsWith(list.base) ? href.slice(list.base.length) : undefined;
  // Its own entries only: "constructor" must not find Object's, whose text no browser reads as an integrity (and a
  // value it cannot read, it ignores: the file would load unchecked).
  return (file !== undefined && list && Object.hasOwn(list.files, file) && list.files[file]) || REFUSED_INTEGRITY;
}

/**
 * The federation runtime's fetch of a remote's manifest: the manifest, with the remote's integrity list fetched beside
 * it and kept for integrityFor. A list that cannot be fetched or read is kept empty, so every file of that remote is
 * refused (and the page falls back as for a remote that is down) rather than loaded unchecked.
 */
export async function fetchManifest(manifestUrl: string, init: RequestInit, remote: string): Promise<Response> {
  if (unchecked(remote)) return fetch(manifestUrl, init);
  const base = new URL('./', new URL(manifestUrl, document.baseURI)).href;
  const [manifest, files] = await Promise.all([
    fetch(manifestUrl, init),
    readList(new URL(INTEGRITY_FILE, base).href).catch((error: unknown) => {
      console.error(`[shell] Remote "${remote}": its files are refused, ${String(error)}`);
      return {};
    }),
  ]);
  lists.set(remote, { base, files });
  return manifest;
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
