import { jobs } from './data';
import type { Job } from './job';
import { clearFilters, defaultFilters, jobCountText, sortJobs, visibleJobs, type JobFilters } from './filters';
import { jobFunctions, jobLocations, type JobFunction, type JobLocation } from './options';

const titleOf = Object.fromEntries(jobs.map((job) => [job.id, job.title]));
const titles = (list: readonly Job[]) => list.map((job) => job.title);

/**
 * The expected result of every Job Function × Location choice, written out by hand from data.ts (newest first), so
 * the filter code is checked against a second, independent statement of the same facts.
 */
const expected: Record<string, Record<string, string[]>> = {
  All: {
    All: [
      'Product Marketing Manager',
      'Product Manager - SAAS',
      'Senior Product Manager',
      'Product Manager - Consumer',
      'Consumer Marketing Specialist',
      'Enterprise Account Executive',
    ],
    'US (Remote)': ['Product Manager - SAAS', 'Senior Product Manager'],
    'San Francisco, CA': ['Product Manager - Consumer'],
    'New York, NY': ['Enterprise Account Executive'],
    'Los Angeles, CA': ['Consumer Marketing Specialist'],
    'Austin, TX': ['Product Marketing Manager'],
  },
  'Product Management': {
    All: ['Product Manager - SAAS', 'Senior Product Manager', 'Product Manager - Consumer'],
    'US (Remote)': ['Product Manager - SAAS', 'Senior Product Manager'],
    'San Francisco, CA': ['Product Manager - Consumer'],
    'New York, NY': [],
    'Los Angeles, CA': [],
    'Austin, TX': [],
  },
  'Product Marketing': {
    All: ['Product Marketing Manager'],
    'US (Remote)': [],
    'San Francisco, CA': [],
    'New York, NY': [],
    'Los Angeles, CA': [],
    'Austin, TX': ['Product Marketing Manager'],
  },
  'Account Executive': {
    All: ['Enterprise Account Executive'],
    'US (Remote)': [],
    'San Francisco, CA': [],
    'New York, NY': ['Enterprise Account Executive'],
    'Los Angeles, CA': [],
    'Austin, TX': [],
  },
  'Consumer Marketing': {
    All: ['Consumer Marketing Specialist'],
    'US (Remote)': [],
    'San Francisco, CA': [],
    'New York, NY': [],
    'Los Angeles, CA': ['Consumer Marketing Specialist'],
    'Austin, TX': [],
  },
};

const functionChoices: (JobFunction | null)[] = [null, ...jobFunctions];
const locationChoices: (JobLocation | null)[] = [null, ...jobLocations];
const combinations = functionChoices.flatMap((jobFunction) =>
  locationChoices.map((location) => ({ jobFunction, location })),
);

describe('visibleJobs', () => {
  it('has an expectation for each of the 30 combinations, and nothing else', () => {
    expect(combinations).toHaveLength(30);
    const tableKeys = Object.entries(expected).flatMap(([fn, row]) => Object.keys(row).map((loc) => `${fn} | ${loc}`));
    const choiceKeys = combinations.map(
      ({ jobFunction, location }) => `${jobFunction ?? 'All'} | ${location ?? 'All'}`,
    );
    expect(tableKeys.sort()).toEqual(choiceKeys.sort());
  });

  it.each(combinations)('function $jobFunction + location $location', ({ jobFunction, location }) => {
    const filters: JobFilters = { ...defaultFilters, jobFunction, location };
    expect(titles(visibleJobs(jobs, filters))).toEqual(expected[jobFunction ?? 'All']?.[location ?? 'All']);
  });

  it('agrees with counting: each function splits exactly over the locations, and vice versa', () => {
    const count = (jobFunction: JobFunction | null, location: JobLocation | null) =>
      visibleJobs(jobs, { ...defaultFilters, jobFunction, location }).length;
    for (const jobFunction of functionChoices) {
      expect(jobLocations.reduce((sum, location) => sum + count(jobFunction, location), 0)).toBe(
        count(jobFunction, null),
      );
    }
    for (const location of locationChoices) {
      expect(jobFunctions.reduce((sum, jobFunction) => sum + count(jobFunction, location), 0)).toBe(
        count(null, location),
      );
    }
    expect(count(null, null)).toBe(jobs.length);
  });

  it('leaves some combinations empty (the empty state is reachable)', () => {
    const empty = combinations.filter(
      ({ jobFunction, location }) => visibleJobs(jobs, { ...defaultFilters, jobFunction, location }).length === 0,
    );
    expect(empty.length).toBeGreaterThan(0);
  });

  it('returns nothing for an empty list', () => {
    expect(visibleJobs([], defaultFilters)).toEqual([]);
    expect(visibleJobs([], { ...defaultFilters, jobFunction: 'Product Management', location: 'Austin, TX' })).toEqual(
      [],
    );
  });
});

describe('sortJobs by Date Posted', () => {
  it('lists the newest first', () => {
    const sorted = sortJobs(jobs, 'Date Posted');
    expect(sorted.map((job) => job.datePosted)).toEqual([
      '2025-06-15',
      '2025-06-14',
      '2025-06-13',
      '2025-06-12',
      '2025-06-11',
      '2025-06-10',
    ]);
    expect(sorted.map((job) => job.id)).toEqual([4, 2, 6, 1, 5, 3]);
    expect(sorted.map((job) => titleOf[job.id])).toEqual(expected.All?.All);
  });

  it('does not depend on the input order and does not change the input', () => {
    const reversed = [...jobs].reverse();
    const before = reversed.map((job) => job.id);
    expect(sortJobs(reversed, 'Date Posted')).toEqual(sortJobs(jobs, 'Date Posted'));
    expect(reversed.map((job) => job.id)).toEqual(before);
  });

  it('orders jobs posted the same day by id, so the list is stable', () => {
    const [first, second] = jobs as [Job, Job];
    const sameDay = [
      { ...second, datePosted: '2025-06-20' },
      { ...first, datePosted: '2025-06-20' },
    ];
    expect(sortJobs(sameDay, 'Date Posted').map((job) => job.id)).toEqual([first.id, second.id]);
  });
});

describe('clearFilters', () => {
  it('resets function and location to All and keeps the sort', () => {
    const chosen: JobFilters = { jobFunction: 'Account Executive', location: 'Austin, TX', sort: 'Date Posted' };
    expect(clearFilters(chosen)).toEqual({ jobFunction: null, location: null, sort: 'Date Posted' });
  });
});

describe('jobCountText', () => {
  it.each([
    [0, '0 jobs found'],
    [1, '1 job found'],
    [2, '2 jobs found'],
    [6, '6 jobs found'],
  ])('%i → %s', (count, text) => {
    expect(jobCountText(count)).toBe(text);
  });
});
