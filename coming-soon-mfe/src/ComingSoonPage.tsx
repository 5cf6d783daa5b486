import {
  ButtonLink,
  CheckIcon,
  Container,
  Footer,
  landingNavLinks,
  LogoLink,
  paths,
  site,
  useDocumentTitle,
} from '@nativegtm/design-system';
import styles from './ComingSoonPage.module.css';
import { meta } from './meta';

const promises = ['No more resume guesswork.', 'No more failed hires.', 'Just proven talent, delivered.'] as const;
const [recruiterUser, recruiterDomain] = site.recruiterEmail.split('@');

export function ComingSoonPage() {
  useDocumentTitle(meta.title);
  return (
    <>
      <div className={styles.hero}>
        <header className={styles.topBar}>
          <Container className={styles.topBarInner}>
            <LogoLink inverse />
            <ButtonLink to={paths.candidates} variant="inverseOutline" size="sm">
              Back to Home
            </ButtonLink>
          </Container>
        </header>

        <main id="main-content" className={styles.main}>
          <Container className={styles.intro}>
            <p className={styles.badge}>Launching soon</p>
            <h1 className={styles.title}>
              {site.name} is <span className={styles.highlight}>Coming Soon</span>
            </h1>
            <p className={styles.tagline}>We&apos;re revolutionizing hiring with AI-powered skill assessments.</p>
            <ul className={styles.promises}>
              {promises.map((promise) => (
                <li key={promise} className={styles.promise}>
                  <CheckIcon />
                  {promise}
                </li>
              ))}
            </ul>
          </Container>

          <Container className={styles.cards}>
            <section className={styles.card} aria-labelledby="beta-title">
              <h2 id="beta-title" className={styles.cardTitle}>
                Join the Beta
              </h2>
              <p className={styles.cardText}>
                Be among the first to experience standardized skill assessment that transforms how you hire.
              </p>
              <ButtonLink to={site.earlyAccessUrl} newTab size="lg" className={styles.cardAction}>
                Get Early Access
              </ButtonLink>
            </section>
            <section className={styles.card} aria-labelledby="questions-title">
              <h2 id="questions-title" className={styles.cardTitle}>
                Questions?
              </h2>
              <p className={styles.cardText}>
                Our recruiting team is happy to help. Write to us at{' '}
                <span className={styles.address}>
                  {/* On a phone the address breaks after the @ rather than in the middle of a word. */}
                  {recruiterUser}@<wbr />
                  {recruiterDomain}
                </span>
                .
              </p>
              <ButtonLink
                to={`mailto:${site.recruiterEmail}`}
                variant="inverseOutline"
                size="lg"
                className={styles.cardAction}
              >
                Contact us
              </ButtonLink>
            </section>
          </Container>
        </main>
      </div>
      <Footer links={landingNavLinks} />
    </>
  );
}
