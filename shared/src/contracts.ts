import type { ComponentType } from 'react';

// Also importable alone, as '@nativegtm/shared/contracts': plain data without React or styles, which the shell reads
// before the shared singletons are negotiated (to start loading the page's remote at once). That copy is not the
// singleton, which is harmless for constants.
export { paths } from './config/site';
export type { SitePath } from './config/site';

/**
 * The contract between the shell and the page remotes. A remote exposes './Page' whose default export is a
 * page component; the shell loads it by remote name. Both sides import these types, so a remote whose export
 * stops fitting fails the typecheck instead of a visitor's page.
 */
export const remoteNames = ['candidates', 'employers', 'jobs', 'comingSoon'] as const;

export type RemoteName = (typeof remoteNames)[number];

/** Pages take no props today: everything they need comes from the URL and from this package. */
export type PageProps = Record<string, never>;

export type PageComponent = ComponentType<PageProps>;

export interface PageModule {
  default: PageComponent;
}

/** The module id the shell asks Module Federation for: `<remote>/Page`. */
export const exposedPage = './Page';

export function isRemoteName(value: string): value is RemoteName {
  return (remoteNames as readonly string[]).includes(value);
}
