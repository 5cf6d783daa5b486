import { VisuallyHidden } from '@nativegtm/design-system';

export interface RouteAnnouncerProps {
  /** The new page's title and a counter that changes on every navigation (the same title can be announced twice). */
  announcement: { title: string; id: number } | null;
}

/**
 * A polite live region that reads the new document title after client-side navigation: screen readers announce a
 * full page load by themselves, but not a page swapped in by the router. The region is always in the document (an
 * added region is not announced) and starts empty, so the first page load says nothing extra.
 */
export function RouteAnnouncer({ announcement }: RouteAnnouncerProps) {
  return (
    <div aria-live="polite" aria-atomic="true">
      {/* A new node per navigation, so the same words after a different navigation are announced again. */}
      {announcement && <VisuallyHidden key={announcement.id}>{announcement.title}</VisuallyHidden>}
    </div>
  );
}
