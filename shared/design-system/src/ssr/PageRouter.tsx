import { StrictMode, useEffect, type ReactNode } from 'react';
import { NavigationType, Router, type Location, type Navigator } from 'react-router-dom';
import { RenderTimeContext } from './renderTime';

export interface PageRouterProps {
  location: Pick<Location, 'pathname' | 'search' | 'hash'> & Partial<Pick<Location, 'state' | 'key'>>;
  navigator: Navigator;
  navigationType?: NavigationType;
  /** On the server: links render, nothing navigates. */
  isStatic?: boolean;
  /** When the HTML being hydrated was rendered (see RenderTimeContext). */
  renderedAt?: number;
  /**
   * Called once the page's root has rendered a new location, with its path and key (the shell moves focus and the
   * scroll position then).
   */
  onRendered?: (pathname: string, key: string | undefined) => void;
  children: ReactNode;
}

/**
 * The root of a page's own React tree, the same on the server and in the browser, so both produce the same markup
 * (and the same useId values). A page is its own React root: its HTML is rendered by its remote's build, apart from the
 * shell, and hydrated apart from the shell. In the browser the shell passes its router's location and a navigator
 * that drives its router, so Link, NavLink and useSearchParams in the page work the shell's one router.
 */
export function PageRouter({
  location,
  navigator,
  navigationType = NavigationType.Pop,
  isStatic = false,
  renderedAt,
  onRendered,
  children,
}: PageRouterProps) {
  // Effects run child first: the page has rendered and set its title when this runs. (A hook, not an extra element,
  // so the tree and its useId values stay the same as on the server.)
  useEffect(() => onRendered?.(location.pathname, location.key), [onRendered, location.pathname, location.key]);
  return (
    <StrictMode>
      <RenderTimeContext value={renderedAt}>
        <Router location={location} navigator={navigator} navigationType={navigationType} static={isStatic}>
          {children}
        </Router>
      </RenderTimeContext>
    </StrictMode>
  );
}
