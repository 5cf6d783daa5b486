import { paths } from './site';

/**
 * The landing pages' links. On these pages (and on Coming Soon) "Featured Jobs" leads to Coming Soon, as the spec
 * says; only the Featured Jobs page itself links to the listing.
 */
export const landingNavLinks = [
  { label: 'Candidates', to: paths.candidates },
  { label: 'Employers', to: paths.employers },
  { label: 'Featured Jobs', to: paths.comingSoon },
] as const;

/** The Featured Jobs page's links: the same three, with Featured Jobs pointing at the listing. */
export const jobsNavLinks = [
  { label: 'Candidates', to: paths.candidates },
  { label: 'Employers', to: paths.employers },
  { label: 'Featured Jobs', to: paths.featuredJobs },
] as const;
