import { useCallback, useMemo } from 'react';
import { useSearchParams } from '@nativegtm/design-system';
import type { JobFilters } from './jobs/filters';
import { filtersFromQuery, queryWithFilters } from './jobs/urlQuery';

/**
 * The filter state lives in the URL query, so a filtered list can be shared, survives a reload and follows Back and
 * Forward. Each change is a new history entry (push, not replace): Back undoes the last filter, which is what a
 * visitor who changed their mind expects.
 */
export function useJobFilters(): [JobFilters, (next: JobFilters) => void] {
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = useMemo(() => filtersFromQuery(searchParams), [searchParams]);

  const setFilters = useCallback(
    (next: JobFilters) => {
      const nextParams = queryWithFilters(searchParams, next);
      if (nextParams.toString() === searchParams.toString()) return;
      // Without preventScrollReset the shell's scroll restoration would jump to the top on every choice.
      setSearchParams(nextParams, { preventScrollReset: true });
    },
    [searchParams, setSearchParams],
  );

  return [filters, setFilters];
}
