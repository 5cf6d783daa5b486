import { Container, Footer, jobsNavLinks, paths, SiteHeader, useDocumentTitle } from '@nativegtm/shared';
import styles from './FeaturedJobsPage.module.css';

export function FeaturedJobsPage() {
  useDocumentTitle('Featured Jobs');
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
      </main>
      <Footer links={jobsNavLinks} />
    </>
  );
}
