import { useContext, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { useLocation, useNavigate, useNavigationType } from 'react-router-dom';
import { PageRouter, pageIdentifierPrefix, type PageModule } from '@nativegtm/shared';
import { variantKey } from '@nativegtm/shared/server/pageVariant.js';
import { ScreenRenderedContext } from '../a11y/screenRendered';
import { routerNavigator } from './routerNavigator';
import { ServerPageContext } from './serverPage';

export interface PageSlotProps {
  remote: string;
  module: PageModule;
}

/**
 * Where a remote's page lives: its own React root inside the shell's, driven by the shell's router (PageRouter).
 * When the document came with this page's HTML, rendered by the same build as the code just loaded and for the same
 * URL variant, the root hydrates that HTML in place: the nodes the visitor already sees are kept. Otherwise (another
 * build was deployed in between, the server had no HTML, client-side navigation) the page renders fresh.
 */
export function PageSlot({ remote, module }: PageSlotProps) {
  const host = useRef<HTMLDivElement>(null);
  const root = useRef<Root | null>(null);
  const handoff = useContext(ServerPageContext);
  const location = useLocation();
  const navigationType = useNavigationType();
  const navigate = useNavigate();
  const navigator = useMemo(() => routerNavigator(navigate), [navigate]);
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

  function mountPage(element: HTMLElement): Root {
    const options = {
      identifierPrefix: pageIdentifierPrefix(remote),
      onUncaughtError: (error: unknown) => setFailure({ error }),
    };
    const server = handoff.take(remote);
    const sameHtml =
      server !== undefined &&
      server.build === module.buildId &&
      server.variant === variantKey(module.meta?.query, window.location.search);
    if (!sameHtml) {
      const fresh = createRoot(element, options);
      fresh.render(pageTree());
      return fresh;
    }
    // The server's nodes move into this slot untouched, then React adopts them.
    element.append(...server.element.childNodes);
    return hydrateRoot(element, pageTree(server.renderedAt), options);
  }

  useLayoutEffect(() => {
    const element = host.current;
    if (!element) return undefined;
    if (unmountTimer.current !== undefined) {
      // Mounted again right after a cleanup (React's StrictMode checks do that): keep the root.
      clearTimeout(unmountTimer.current);
      unmountTimer.current = undefined;
    } else {
      root.current = mountPage(element);
    }
    return () => {
      // A root cannot be unmounted while React is rendering another; its DOM has left the document already.
      unmountTimer.current = setTimeout(() => {
        unmountTimer.current = undefined;
        root.current?.unmount();
        root.current = null;
      }, 0);
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

  return <div ref={host} />;
}
