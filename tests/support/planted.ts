// What someone who can write where a remote's files are kept plants in them, and how a test knows it never ran: a
// line of their own that leaves a mark on the page's window.
import { appendFileSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Session } from './engines/session';

/** The planted line: it sets window.__tampered wherever it runs. */
export const PLANTED_LINE = ';window.__tampered = true;';

/** The jobs page's own chunk in a build of its remote: the last file its ./Page loads. */
export function pageChunk(dir: string): string {
  const manifest = JSON.parse(readFileSync(join(dir, 'mf-manifest.json'), 'utf8')) as {
    exposes: { path: string; assets: { js: { sync: string[] } } }[];
  };
  return manifest.exposes.find((expose) => expose.path === './Page')!.assets.js.sync.at(-1)!;
}

/**
 * The planted line at the end of a file of a build, whose compressed copies go (a server would send those
 * instead).
 */
export function plant(dir: string, file: string): void {
  appendFileSync(join(dir, file), PLANTED_LINE);
  rmSync(join(dir, `${file}.gz`), { force: true });
  rmSync(join(dir, `${file}.br`), { force: true });
}

/** Whether planted code ran in the tab's page. */
export async function plantedRan(tab: Session): Promise<boolean> {
  return (await tab.evaluate(() => (window as unknown as { __tampered?: boolean }).__tampered ?? null)) !== null;
}
