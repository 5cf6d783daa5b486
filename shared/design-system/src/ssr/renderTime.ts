import { createContext, useContext, useSyncExternalStore } from 'react';

/**
 * When the HTML being hydrated was rendered (ms since the epoch). Pages are rendered when their remote is built, so
 * anything computed from the clock (the footer's year) must hydrate with the value the HTML was rendered with and
 * only then show today's.
 */
export const RenderTimeContext = createContext<number | undefined>(undefined);

const noChanges = () => () => undefined;

/**
 * This year; while hydrating, the year the HTML was rendered in (React then re-renders with this year). The render's
 * year is read in UTC on both sides: the build machine and the visitor are in different time zones, and around New
 * Year their local years of the same moment differ (a hydration error otherwise).
 */
export function useCurrentYear(now: () => Date): number {
  const renderedAt = useContext(RenderTimeContext);
  return useSyncExternalStore(
    noChanges,
    () => now().getFullYear(),
    () => (renderedAt === undefined ? now().getFullYear() : new Date(renderedAt).getUTCFullYear()),
  );
}
