import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { focusElement, pageStart } from './focus';

/**
 * After client-side navigation to another path, moves focus to the new page's h1 and returns its title for the
 * route announcer. Without it, focus stays on a link that is no longer in the document and keyboard and
 * screen-reader users start again from the top of the page, unaware that anything changed.
 *
 * Only the pathname counts: a change of query (the Featured Jobs filters) or of hash updates the same page, and focus
 * must stay on the control the visitor is using. The first page load moves nothing either.
 */
export function useFocusOnNavigation(): { title: string; id: number } | null {
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  const [announcement, setAnnouncement] = useState<{ title: string; id: number } | null>(null);

  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    // Effects run child first: the new page has rendered and set its document title by now.
    const start = pageStart();
    // Scroll restoration owns the scroll position (top for a new page, the old position on Back).
    if (start) focusElement(start, { preventScroll: true });
    setAnnouncement((last) => ({ title: document.title, id: (last?.id ?? 0) + 1 }));
  }, [pathname]);

  return announcement;
}
