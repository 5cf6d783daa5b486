import { pages } from '../../pages';

/**
 * Site configuration: the brand and the two outside addresses the site links to. One place, so a deployment
 * changes them here without touching any page.
 */
export const site = {
  name: 'NativeGTM',
  recruiterEmail: 'recruiting@nativegtm.example',
  earlyAccessUrl: 'https://forms.nativegtm.example/early-access',
} as const;

type Page = (typeof pages)[number];

/** The public routes, from the registry of pages (shared/pages.js). The shell maps them to remotes; pages use them for their links. */
export const paths = Object.fromEntries(pages.map((page) => [page.pathKey, page.route])) as {
  readonly [P in Page as P['pathKey']]: P['route'];
};

export type SitePath = (typeof paths)[keyof typeof paths];

/** "Featured Jobs · NativeGTM": every screen's document title has the same shape. */
export function documentTitle(screen?: string): string {
  return screen ? `${screen} · ${site.name}` : site.name;
}
