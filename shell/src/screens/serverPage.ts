import { createContext } from 'react';

/** A page's HTML that came with the document (rendered by its remote's build, composed by the shell's server). */
export interface ServerPage {
  /** The element the server wrapped the page's HTML in, after #root: the page's own React root takes it over. */
  element: HTMLElement;
  remote: string;
  build: string;
  variant: string;
  renderedAt: number | undefined;
}

/** Hands the document's page HTML to the first PageSlot of the same remote, once. */
export interface ServerPageHandoff {
  take(remote: string): ServerPage | undefined;
  /** Removes the server's HTML if no page took it (the route showed the 404 or the error screen instead). */
  discardUntaken(): void;
}

const noServerPage: ServerPageHandoff = { take: () => undefined, discardUntaken: () => undefined };

export const ServerPageContext = createContext<ServerPageHandoff>(noServerPage);

/** The page HTML in the document, if the server composed one (see shared/build/ssr.js for the wrapper). */
export function findServerPage(container: HTMLElement = document.body): ServerPage | undefined {
  const element = container.querySelector<HTMLElement>(':scope > [data-remote][data-build]');
  if (!element) return undefined;
  const { remote = '', build = '', variant = '', renderedAt } = element.dataset;
  const time = Number(renderedAt);
  return { element, remote, build, variant, renderedAt: Number.isFinite(time) ? time : undefined };
}

export function serverPageHandoff(page: ServerPage | undefined): ServerPageHandoff {
  let available = page;
  return {
    take(remote) {
      if (available?.remote !== remote) return undefined;
      const taken = available;
      available = undefined;
      return taken;
    },
    discardUntaken() {
      available?.element.remove();
      available = undefined;
    },
  };
}
