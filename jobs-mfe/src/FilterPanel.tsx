import type { Ref } from 'react';
import type { JobFilters } from './jobs/filters';
import {
  allJobFunctionsLabel,
  allLocationsLabel,
  jobFunctions,
  jobLocations,
  optionForSlug,
  slugify,
  sortOptions,
} from './jobs/options';
import { Button, paths } from '@nativegtm/design-system';
import { queryKeys } from './jobs/urlQuery';
import { SelectField, type SelectOption } from './SelectField';
import styles from './FilterPanel.module.css';

// The empty value stands for "All"; every other value is the option's slug, as in the URL.
const ALL = '';
const toOption = (label: string): SelectOption => ({ value: slugify(label), label });
const functionOptions = [{ value: ALL, label: allJobFunctionsLabel }, ...jobFunctions.map(toOption)];
const locationOptions = [{ value: ALL, label: allLocationsLabel }, ...jobLocations.map(toOption)];
const sortSelectOptions = sortOptions.map(toOption);

export interface FilterPanelProps {
  filters: JobFilters;
  onChange: (next: JobFilters) => void;
  /** The Job Function select, so the page can return focus to it after Clear Filters. */
  functionRef?: Ref<HTMLSelectElement>;
}

/**
 * Job Function, Location and Sort by: a row on wide screens, stacked on phones. With JavaScript each choice applies at
 * once; without it this is a plain GET form of the page's own URL query, sent with its button (which exists only
 * without JavaScript: a <noscript> React does not render in the browser).
 */
export function FilterPanel({ filters, onChange, functionRef }: FilterPanelProps) {
  return (
    <form
      role="search"
      aria-label="Filter jobs"
      className={styles.panel}
      method="get"
      action={paths.featuredJobs}
      onSubmit={(event) => event.preventDefault()}
    >
      <SelectField
        ref={functionRef}
        label="Job Function"
        name={queryKeys.jobFunction}
        value={filters.jobFunction === null ? ALL : slugify(filters.jobFunction)}
        options={functionOptions}
        onChange={(value) => onChange({ ...filters, jobFunction: optionForSlug(jobFunctions, value) ?? null })}
      />
      <SelectField
        label="Location"
        name={queryKeys.location}
        value={filters.location === null ? ALL : slugify(filters.location)}
        options={locationOptions}
        onChange={(value) => onChange({ ...filters, location: optionForSlug(jobLocations, value) ?? null })}
      />
      <SelectField
        label="Sort by"
        name={queryKeys.sort}
        value={slugify(filters.sort)}
        options={sortSelectOptions}
        onChange={(value) => onChange({ ...filters, sort: optionForSlug(sortOptions, value) ?? filters.sort })}
      />
      <noscript>
        <div className={styles.submit}>
          <Button type="submit">Show jobs</Button>
        </div>
      </noscript>
    </form>
  );
}
