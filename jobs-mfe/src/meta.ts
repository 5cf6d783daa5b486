import type { PageMeta } from '@nativegtm/design-system';
import { jobFunctions, jobLocations, slugify, sortOptions } from './jobs/options';
import { queryKeys } from './jobs/urlQuery';

/**
 * The page's title and description, in the document's head and in link previews, and the query parameters its HTML
 * depends on: one server-rendered variant per filter combination (see PageMeta.query).
 */
export const meta: PageMeta = {
  title: 'Featured Jobs',
  description:
    'Featured AI-native go-to-market jobs: product management, product marketing, account executive and consumer marketing roles, filtered by function and location.',
  query: {
    [queryKeys.jobFunction]: jobFunctions.map(slugify),
    [queryKeys.location]: jobLocations.map(slugify),
    [queryKeys.sort]: sortOptions.map(slugify),
  },
};
