import type { ComponentType } from 'react';

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
