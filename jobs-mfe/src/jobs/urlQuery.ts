import { defaultFilters, type JobFilters } from './filters';
import { jobFunctions, jobLocations, optionForSlug, slugify, sortOptions } from './options';

/** The query parameters the page reads and writes, e.g. `?function=product-marketing&location=austin-tx`. */
export const queryKeys = { jobFunction: 'function', location: 'location', sort: 'sort' } as const;

/**
 * The parameter's value when it is given exactly once. A repeated parameter is ambiguous (which one did the sender
 * mean?), so it counts as absent rather than picking one silently.
 */
function single(params: URLSearchParams, key: string): string | undefined {
  const values = params.getAll(key);
  return values.length === 1 ? values[0] : undefined;
}

/**
 * The filters a URL asks for. Anything that is not exactly one known slug (missing, unknown, repeated, garbled
 * percent-encoding) falls back to the default, so any link opens a working page; the raw value is never shown.
 */
export function filtersFromQuery(params: URLSearchParams): JobFilters {
  const read = <T extends string>(key: string, options: readonly T[]): T | undefined => {
    const value = single(params, key);
    return value === undefined ? undefined : optionForSlug(options, value);
  };
  return {
    jobFunction: read(queryKeys.jobFunction, jobFunctions) ?? defaultFilters.jobFunction,
    location: read(queryKeys.location, jobLocations) ?? defaultFilters.location,
    sort: read(queryKeys.sort, sortOptions) ?? defaultFilters.sort,
  };
}

/**
 * `params` with the filters written in: default values are left out, so the page's plain URL stays plain, and
 * parameters that are not ours (utm_source, …) are kept.
 */
export function queryWithFilters(params: URLSearchParams, filters: JobFilters): URLSearchParams {
  const next = new URLSearchParams(params);
  const write = (key: string, value: string | null, fallback: string | null) => {
    if (value === null || value === fallback) next.delete(key);
    else next.set(key, slugify(value));
  };
  write(queryKeys.jobFunction, filters.jobFunction, defaultFilters.jobFunction);
  write(queryKeys.location, filters.location, defaultFilters.location);
  write(queryKeys.sort, filters.sort, defaultFilters.sort);
  return next;
}
