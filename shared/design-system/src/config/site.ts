/**
 * Site configuration: the brand and the two outside addresses the site links to. One place, so a deployment
 * changes them here without touching any page.
 */
export const site = {
  name: 'NativeGTM',
  recruiterEmail: 'recruiting@nativegtm.example',
  earlyAccessUrl: 'https://forms.nativegtm.example/early-access',
} as const;

/** The public routes by name (from the registry of pages, @nativegtm/contract). */
export { paths } from '@nativegtm/contract/sitePaths';
export type { SitePath } from '@nativegtm/contract/sitePaths';

/** "Featured Jobs · NativeGTM": every screen's document title has the same shape. */
export function documentTitle(screen?: string): string {
  return screen ? `${screen} · ${site.name}` : site.name;
}
