import type { Job } from './job';
import { sortOptions, type JobFunction, type JobLocation, type SortOption } from './options';

/** What the visitor chose. `null` is "All": no restriction. */
export interface JobFilters {
  jobFunction: JobFunction | null;
  location: JobLocation | null;
  sort: SortOption;
}

export const defaultFilters: JobFilters = { jobFunction: null, location: null, sort: sortOptions[0] };

/** Both filters combined with AND; "All" matches every job. */
function matchesFilters(job: Job, { jobFunction, location }: JobFilters): boolean {
  return (jobFunction === null || job.jobFunction === jobFunction) && (location === null || job.location === location);
}

/**
 * Newest first. `datePosted` is `YYYY-MM-DD`, so comparing the strings compares the dates; ties (not in today's data)
 * keep a stable order by id so the list never shuffles between renders.
 */
export function sortJobs(list: readonly Job[], sort: SortOption): Job[] {
  switch (sort) {
    case 'Date Posted':
      return [...list].sort((a, b) => b.datePosted.localeCompare(a.datePosted) || a.id - b.id);
  }
}

/** The jobs to show for the chosen filters, in the chosen order. */
export function visibleJobs(list: readonly Job[], filters: JobFilters): Job[] {
  return sortJobs(
    list.filter((job) => matchesFilters(job, filters)),
    filters.sort,
  );
}

/** Clear Filters: function and location back to All; the sort is the visitor's and stays. */
export function clearFilters(filters: JobFilters): JobFilters {
  return { ...filters, jobFunction: null, location: null };
}

/** "6 jobs found", "1 job found", "0 jobs found". */
export function jobCountText(count: number): string {
  return `${count} ${count === 1 ? 'job' : 'jobs'} found`;
}
