/**
 * The filter and sort choices the spec fixes (section 9), in the order the dropdowns list them. Each option has a
 * slug, its label in lower case with every run of other characters turned into one hyphen: that is how it appears
 * in the page's URL, so the labels can change wording only together with a thought for links already shared.
 */
export const jobFunctions = [
  'Product Management',
  'Product Marketing',
  'Account Executive',
  'Consumer Marketing',
] as const;
export type JobFunction = (typeof jobFunctions)[number];

export const jobLocations = [
  'US (Remote)',
  'San Francisco, CA',
  'New York, NY',
  'Los Angeles, CA',
  'Austin, TX',
] as const;
export type JobLocation = (typeof jobLocations)[number];

export const sortOptions = ['Date Posted'] as const;
export type SortOption = (typeof sortOptions)[number];

export const allJobFunctionsLabel = 'All Job Functions';
export const allLocationsLabel = 'All Locations';

/** "San Francisco, CA" → "san-francisco-ca", "US (Remote)" → "us-remote". */
export function slugify(label: string): string {
  return label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** The option whose slug is exactly `slug`, if any. */
export function optionForSlug<T extends string>(options: readonly T[], slug: string): T | undefined {
  return options.find((option) => slugify(option) === slug);
}
