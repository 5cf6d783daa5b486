import { useRef } from 'react';
import { Container, Footer, jobsNavLinks, paths, SiteHeader, useDocumentTitle } from '@nativegtm/design-system';
import { FilterPanel } from './FilterPanel';
import { JobCard } from './JobCard';
import { jobs } from './jobs/data';
import { clearFilters, jobCountText, visibleJobs } from './jobs/filters';
import { NoJobsFound } from './NoJobsFound';
import { useJobFilters } from './useJobFilters';
import styles from './FeaturedJobsPage.module.css';
import { meta } from './meta';

export function FeaturedJobsPage() {
  useDocumentTitle(meta.title);
  const [filters, setFilters] = useJobFilters();
  const functionSelect = useRef<HTMLSelectElement>(null);
  const shown = visibleJobs(jobs, filters);

  const onClear = () => {
    setFilters(clearFilters(filters));
    // The Clear Filters button is about to disappear; without this, keyboard focus would fall back to the page start.
    functionSelect.current?.focus();
  };

  return (
    <>
      <SiteHeader links={jobsNavLinks} signIn={{ label: 'Sign In', to: paths.comingSoon }} />
      <main id="main-content" className={styles.main}>
        <section className={styles.intro} aria-labelledby="featured-jobs-title">
          <Container>
            <h1 id="featured-jobs-title" className={styles.title}>
              Featured Jobs
            </h1>
            <p className={styles.subtitle}>Discover elite opportunities from top companies.</p>
          </Container>
        </section>

        <Container className={styles.results}>
          <FilterPanel filters={filters} onChange={setFilters} functionRef={functionSelect} />
          {/* A polite live region: screen readers hear the new count after each choice, without losing their place. */}
          <p role="status" className={styles.count}>
            {jobCountText(shown.length)}
          </p>
          {shown.length > 0 ? (
            <ul className={styles.list}>
              {shown.map((job) => (
                <li key={job.id} className={styles.item}>
                  <JobCard job={job} />
                </li>
              ))}
            </ul>
          ) : (
            <NoJobsFound onClear={onClear} />
          )}
        </Container>
      </main>
      <Footer links={jobsNavLinks} />
    </>
  );
}
