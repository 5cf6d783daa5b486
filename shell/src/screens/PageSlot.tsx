import { startTransition, useContext, useLayoutEffect, useRef, useState } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { useLocation, useNavigationType, type Navigator } from 'react-router-dom';
import { PageRouter, pageIdentifierPrefix, type PageModule } from '@nativegtm/design-system';
import { variantKey } from '@nativegtm/contract/pageVariant';
import { ScreenRenderedContext } from '../a11y/screenRendered';
import { ServerPageContext } from './serverPage';

export interface PageSlotProps {
  remote: string;
  module: PageModule;
  /** The shell's history: the page's links and setSearchParams drive the one router of the document. */
  navigator: Navigator;
}

/**
 * Where a remote's page lives: its own React root, driven by the shell's router (PageRouter). When the document came
 * with this page's HTML, the root is made on the server's element where it is (after #root, never moved, so the
 * browser does not count a painted page as new content): it hydrates that HTML when it was rendered by the same build
 * as the code just loaded and for the same URL variant, and renders fresh into it otherwise (another build was
 * deployed in between), replacing it in one commit. Without server HTML (client-side navigation) the page renders into
 * this slot's own element.
 */
export function PageSlot({ remote, module, navigator }: PageSlotProps) {
  const host = useRef<HTMLDivElement>(null);
  const root = useRef<Root | null>(null);
  const handoff = useContext(ServerPageContext);
  const location = useLocation();
  const navigationType = useNavigationType();
  const screenRendered = useContext(ScreenRenderedContext);
  const Page = module.default;
  // An error the page's own root did not catch is rethrown here, so the route's error screen shows it.
  const [failure, setFailure] = useState<{ error: unknown } | null>(null);
  if (failure) throw failure.error;

  /** The page's tree; `renderedAt` only for hydration (the render time of the server's HTML). */
  const pageTree = (renderedAt?: number) => (
    <PageRouter
      location={location}
      navigationType={navigationType}
      navigator={navigator}
      renderedAt={renderedAt}
      onRendered={screenRendered}
    >
      <Page />
    </PageRouter>
  );
  const unmountTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  /** The server's element, when the page's root was made on it (it is not this component's to remove). */
  const serverElement = useRef<HTMLElement | null>(null);

  /** The page's root, and the element it was made on. */
  function mountPage(element: HTMLElement): { root: Root; container: HTMLElement } {
    const options = {
      identifierPrefix: pageIdentifierPrefix(remote),
      onUncaughtError: (error: unknown) => setFailure({ error }),
    };
    const server = handoff.take(remote);
    const sameHtml =
      server !== undefined &&
      server.build === module.buildId &&
      server.variant === variantKey(module.meta?.query, window.location.search);
    if (!server || !sameHtml) {
      // Over the server's HTML, if any: React replaces it in the commit that shows the fresh page.
      const container = server?.element ?? element;
      const fresh = createRoot(container, options);
      fresh.render(pageTree());
      return { root: fresh, container };
    }
    // In a transition, so hydration yields to the browser every few milliseconds instead of holding the main thread
    // for the whole page (the page is already on screen; its links and form work meanwhile as plain HTML).
    let hydrating: Root | undefined;
    startTransition(() => {
      hydrating = hydrateRoot(server.element, pageTree(server.renderedAt), options);
    });
    return { root: hydrating!, container: server.element };
  }

  useLayoutEffect(() => {
    const element = host.current;
    if (!element) return undefined;
    if (unmountTimer.current !== undefined) {
      // Mounted again right after a cleanup (React's StrictMode checks do that): keep the root.
      clearTimeout(unmountTimer.current);
      unmountTimer.current = undefined;
      if (serverElement.current) serverElement.current.hidden = false;
    } else {
      const mounted = mountPage(element);
      root.current = mounted.root;
      serverElement.current = mounted.container === element ? null : mounted.container;
    }
    return () => {
      // A root cannot be unmounted while React is rendering another. The page leaves the screen now, in the commit
      // that shows the next one: the slot's own element goes with this component, the server's is removed here.
      const leaving = serverElement.current;
      unmountTimer.current = setTimeout(() => {
        unmountTimer.current = undefined;
        root.current?.unmount();
        root.current = null;
        leaving?.remove();
      }, 0);
      if (leaving) leaving.hidden = true;
    };
    // Mounted once per page: the slot is keyed by remote, and location changes are the next effect's.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // What the root last rendered with: it renders again only when one of these changed (an early update would make a
  // hydrating root throw the server's HTML away, and StrictMode runs effects twice).
  const rendered = useRef<unknown[] | null>(null);
  useLayoutEffect(() => {
    const inputs = [location, navigationType, navigator, Page, screenRendered];
    const previous = rendered.current;
    rendered.current = inputs;
    if (!previous || inputs.every((input, index) => input === previous[index])) return;
    root.current?.render(pageTree());
    // pageTree closes over exactly these.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [location, navigationType, navigator, Page, screenRendered]);

  // Marked with its remote: field data tells the elements of a page rendered here from the shell's own.
  return <div ref={host} data-page-slot={remote} />;
}
