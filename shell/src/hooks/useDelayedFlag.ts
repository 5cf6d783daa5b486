import { useEffect, useState } from 'react';

/**
 * True once `active` has stayed true for `delayMs`. Loading indicators use it so a fast load shows nothing at all
 * rather than a flash of spinner.
 */
export function useDelayedFlag(active: boolean, delayMs: number): boolean {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!active) return undefined;
    const timer = setTimeout(() => setShown(true), delayMs);
    return () => {
      clearTimeout(timer);
      setShown(false);
    };
  }, [active, delayMs]);
  return active && shown;
}
