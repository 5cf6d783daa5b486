import { INTEGRITY_FILE, REFUSED_INTEGRITY, parseIntegrityList } from '@nativegtm/contract/integrity';
import type { RemoteName } from '@nativegtm/contract/pages';
import { getRemotesConfig, resetRemotesConfig } from './remotesConfig';
import { unlessLeaving, whileLoading } from './pageLeft';
import { sha384 } from './sha384';

/**
 * Each remote's integrity list (its build's integrity.json, @nativegtm/contract/integrity), fetched before its
 * mf-manifest.json, and the folder its paths are relative to. The manifest itself, and the scripts and stylesheets the
 * federation runtime adds for a remote (its entry, the preloads of its page's chunks), carry their integrity from it;
 * the chunks the remote's own runtime loads later carry theirs from its remoteEntry.js.
 */
const lists = new Map<string, { base: string; files: Readonly<Record<string, string>> }>();

/** The integrity of each remote's list, as the site's server vouches for it in /remotes.json. */
let vouched: Readonly<Partial<Record<string, string>>> = {};

/** The origin of each remote the site's server says this browser loads from a dev server. */
let devServers: Readonly<Partial<Record<string, string>>> = {};

/**
 * Takes what /remotes.json vouches for: each remote's list is fetched with that integrity, or not at all; and the
 * remotes it says come from a dev server (an override the server checked).
 */
export function vouchFor(
  integrity: Readonly<Partial<Record<string, string>>>,
  dev: Readonly<Partial<Record<string, string>>> = {},
): void {
  vouched = integrity;
  devServers = dev;
}

/**
 * Whether a file of this remote is loaded without integrity: in a development build, or from the dev server the
 * site's server says this browser overrides the remote with (that origin only). Never as a cookie says: the page's
 * own scripts, or a sibling host's, can write one.
 */
function unchecked(remote: string, url: string): boolean {
  if (process.env.NODE_ENV !== 'production') return true;
  const devServer = devServers[remote];
  return devServer !== undefined && new URL(url, document.baseURI).origin === devServer;
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
export async function fetchManifest(
  manifestUrl: string,
  init: RequestInit,
  remote: string,
  { vouchedAgain = refreshedVouch }: { vouchedAgain?: (remote: string) => Promise<string | undefined> } = {},
): Promise<Response> {
  if (unchecked(remote, manifestUrl)) return fetch(manifestUrl, init);
  const base = new URL('./', new URL(manifestUrl, document.baseURI)).href;
  const listUrl = new URL(INTEGRITY_FILE, base).href;
  const withList = async () => {
    const files = await whileLoading(() => readList(listUrl, remote, vouchedAgain)).catch((error: unknown) => {
      // (A fetch the browser aborted because the visitor is leaving refused nothing.)
      unlessLeaving(() => console.error(`[shell] Remote "${remote}": its files are refused, ${String(error)}`));
      return {};
    });
    lists.set(remote, { base, files });
    return fetch(manifestUrl, { ...init, integrity: integrityFor(remote, manifestUrl) ?? REFUSED_INTEGRITY });
  };
  const listed = vouched[remote];
  try {
    return await withList();
  } catch (error) {
    // A promote between the list's fetch and the manifest's: the manifest is the next release's. Once more, with the
    // list the site vouches for now, if that is another. (Not for a list refused, nor one taken after asking.)
    const read = Object.keys(lists.get(remote)?.files ?? {}).length > 0;
    if (!read || listed === undefined || vouched[remote] !== listed) throw error;
    const now = await vouchedSince(remote, listed, vouchedAgain);
    if (now === undefined) throw error;
    vouched = { ...vouched, [remote]: now };
    return withList();
  }
}

/** How long the site may take to see a promote (the store's live pointer is read again every 200 ms). */
const PROMOTE_SEEN_MS = 300;

/**
 * What the site vouches for now, if it is another list than `expected`: asked again, and once more a moment later
 * when the site still says the same (it may not have seen a promote yet).
 */
async function vouchedSince(
  remote: string,
  expected: string,
  vouchedAgain: (remote: string) => Promise<string | undefined>,
): Promise<string | undefined> {
  const ask = () => vouchedAgain(remote).catch(() => undefined);
  let now = await ask();
  if (now === expected) {
    await new Promise((resolve) => setTimeout(resolve, PROMOTE_SEEN_MS));
    now = await ask();
  }
  return now === expected ? undefined : now;
}

/**
 * Whether the site still vouches for the list this page took for the remote. A file refused once it no longer does is
 * a promote's (this page's files were of the release before), not a planted one: worth no alert.
 */
export async function vouchStands(
  remote: string,
  vouchedAgain: (remote: string) => Promise<string | undefined> = refreshedVouch,
): Promise<boolean> {
  const now = await vouchedAgain(remote).catch(() => undefined);
  return now === undefined || now === vouched[remote];
}

/** What /remotes.json vouches for now, read again. */
async function refreshedVouch(remote: string): Promise<string | undefined> {
  resetRemotesConfig();
  return (await getRemotesConfig()).integrity[remote as RemoteName];
}

/**
 * The remote's list, if it is the one the site vouches for: a list that is not, or none vouched for, is refused, and
 * with it every file of the remote. What /remotes.json vouched for may be a release that is no longer live (a promote
 * since this page got it): the site is asked once more.
 *
 * The page checks the list's digest itself, so that a list promoted since is taken with no fetch refused in the
 * console, and a list refused for its bytes is known to be (refusedList). Without Web Crypto (a page served neither
 * over HTTPS nor from localhost) the browser checks it: fetched with the integrity vouched for, then with the one
 * vouched for now.
 */
async function readList(
  url: string,
  remote: string,
  vouchedAgain: (remote: string) => Promise<string | undefined>,
): Promise<Record<string, string>> {
  // None vouched for: the remote's server did not answer the site's, say; it may now (the error screen's Try again).
  const expected = vouched[remote] ?? (await vouchedAgain(remote).catch(() => undefined));
  if (expected === undefined) throw new Error(`the site vouches for no list of ${url.replace(/\/[^/]*$/, '/')}`);
  vouched = { ...vouched, [remote]: expected };
  const vouchedNow = () => vouchedSince(remote, expected, vouchedAgain);
  const init = { mode: 'cors', credentials: 'omit' } as const;
  if (!globalThis.crypto?.subtle) {
    const response = await fetch(url, { ...init, integrity: expected }).catch(async (error: unknown) => {
      const now = await vouchedNow();
      if (now === undefined) throw error;
      vouched = { ...vouched, [remote]: now };
      return fetch(url, { ...init, integrity: now });
    });
    if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
    return parseIntegrityList(await response.text());
  }
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
  const bytes = await response.arrayBuffer();
  const digest = await sha384(bytes);
  if (digest !== expected) {
    const now = await vouchedNow();
    if (now === undefined || now !== digest) {
      refusedLists.set(remote, url);
      throw new Error(`${url} is not the list the site vouches for`);
    }
    vouched = { ...vouched, [remote]: now };
  }
  refusedLists.delete(remote);
  return parseIntegrityList(new TextDecoder().decode(bytes));
}

/** Each remote's list that was refused for its bytes, by URL. */
const refusedLists = new Map<string, string>();

/** The URL of the remote's list, if it was refused for its bytes. */
export const refusedList = (remote: string): string | undefined => refusedLists.get(remote);

/** For tests: forget the lists and what was vouched for. */
export function resetIntegrityLists(): void {
  lists.clear();
  refusedLists.clear();
  vouched = {};
  devServers = {};
}
