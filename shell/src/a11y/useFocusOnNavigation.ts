import { useCallback, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { focusElement, pageStart } from './focus';

/**
 * After client-side navigation to another path, moves focus to the new page's h1 and returns its title for the
 * route announcer. Without it, focus stays on a link that is no longer in the document and keyboard and
 * screen-reader users start again from the top of the page, unaware that anything changed.
 *
 * It acts when the new screen reports that it has rendered (ScreenRenderedContext): the page and its title are in
 * the document by then. Only the pathname counts: a change of query (the Featured Jobs filters) or of hash updates the
 * same page, and focus must stay on the control the visitor is using. The first page load moves nothing either.
 */
export function useFocusOnNavigation(): [{ title: string; id: number } | null, (pathname: string) => void] {
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  const [announcement, setAnnouncement] = useState<{ title: string; id: number } | null>(null);

  const screenRendered = useCallback((renderedPath: string) => {
    if (previous.current === renderedPath) return;
    previous.current = renderedPath;
    const start = pageStart();
    // Scroll restoration owns the scroll position (top for a new page, the old position on Back).
    if (start) focusElement(start, { preventScroll: true });
    setAnnouncement((last) => ({ title: document.title, id: (last?.id ?? 0) + 1 }));
  }, []);

  return [announcement, screenRendered];
}
