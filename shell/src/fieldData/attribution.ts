import { MAX_TARGET_LENGTH, SHELL } from '@nativegtm/contract/fieldData';
import type { RemotesConfig } from '../remotes/remotesConfig';

// Who owns what went wrong: the element a poor LCP, INP or CLS points at, and the files an error was thrown from.

/** An element as a CSS selector, as web-vitals writes it: up to the nearest id, at most MAX_TARGET_LENGTH long. */
export function selectorOf(node: Node): string {
  let selector = '';
  for (let current: Node | null = node; current && current.nodeType === Node.ELEMENT_NODE;) {
    const element = current as Element;
    const part = element.id ? `#${element.id}` : [element.localName, ...[...element.classList].sort()].join('.');
    if (selector.length + part.length > MAX_TARGET_LENGTH - 1) return selector || part.slice(0, MAX_TARGET_LENGTH);
    selector = selector ? `${part}>${selector}` : part;
    if (element.id) break;
    current = element.parentNode;
  }
  return selector;
}

/**
 * The remote whose DOM holds `node`: the server's page element (`data-remote`) or the shell's page slot
 * (`data-page-slot`, a page rendered in the browser) around it, "shell" outside every page, and undefined when that
 * cannot be told any more (the node left the document without its page).
 */
export function remoteOfNode(node: Node): string | undefined {
  const element = node.nodeType === Node.ELEMENT_NODE ? (node as Element) : node.parentElement;
  const page = element?.closest<HTMLElement>('[data-remote], [data-page-slot]');
  if (page) return page.dataset.remote ?? page.dataset.pageSlot;
  return node.isConnected ? SHELL : undefined;
}

export interface Target {
  target: string;
  targetRemote?: string;
}

/**
 * web-vitals' attribution names an element only by the string its `generateTarget` option returns; the collector
 * needs its remote too, found while the element is still at hand. Both travel in that string, split by a character
 * no selector holds, and are taken apart again by readTarget.
 */
const SEPARATOR = '\u001f';

export const describeTarget = (node: Node): Target => {
  const targetRemote = remoteOfNode(node);
  return targetRemote ? { target: selectorOf(node), targetRemote } : { target: selectorOf(node) };
};

export const generateTarget = (node: Node | null): string | undefined =>
  node ? `${remoteOfNode(node) ?? ''}${SEPARATOR}${selectorOf(node)}` : undefined;

/** A target from web-vitals' attribution: generateTarget's, or the browser's own selector (no remote known). */
export function readTarget(value: string | undefined): Target | undefined {
  if (!value) return undefined;
  const split = value.indexOf(SEPARATOR);
  if (split < 0) return { target: value };
  const target = value.slice(split + 1);
  const targetRemote = value.slice(0, split);
  return targetRemote ? { target, targetRemote } : { target };
}

/** Where each remote's files are (its manifest's folder) and the shell's (the document's origin), longest first. */
export type CodeBases = readonly { base: string; remote: string }[];

export function codeBases(config: RemotesConfig | undefined, shellBase: string): CodeBases {
  const bases: { base: string; remote: string }[] = [{ base: shellBase, remote: SHELL }];
  for (const [remote, entry] of Object.entries(config?.entries ?? {})) {
    if (entry) bases.push({ base: new URL('.', entry).href, remote });
  }
  return bases.sort((a, b) => b.base.length - a.base.length);
}

/** Script URLs in a stack, innermost frame first, in the formats of Chromium, Firefox and WebKit. */
const STACK_URL = /\bhttps?:\/\/[^\s()@]+/g;
const LINE_AND_COLUMN = /(:\d+)+$/;

/**
 * The remote whose files threw: the innermost frame of the stack that is one of the site's files, else the script
 * the browser names (ErrorEvent.filename). The shell's when neither names a file of the site: its own code, and what
 * runs in its page without being a remote (a browser extension, a script whose errors the browser hides: "Script
 * error.", no stack, no file).
 */
export function remoteOfError(stack: string | undefined, filename: string | undefined, bases: CodeBases): string {
  const urls = [...(stack?.match(STACK_URL) ?? []).map((url) => url.replace(LINE_AND_COLUMN, '')), filename ?? ''];
  for (const url of urls) {
    const owner = bases.find(({ base }) => url.startsWith(base));
    if (owner) return owner.remote;
  }
  return SHELL;
}
