import { Link } from 'react-router-dom';
import { site } from '../../config/site';
import { useCurrentYear } from '../../ssr/renderTime';
import { Container } from '../Container/Container';
import { Logo } from '../Logo/Logo';
import styles from './Footer.module.css';

export interface FooterLink {
  label: string;
  to: string;
}

export interface FooterProps {
  /** Site links shown in the footer's navigation; pages choose them (the spec differs per page). */
  links?: readonly FooterLink[];
  /** Clock for the copyright year; injectable so tests can pin it. */
  now?: () => Date;
}

const defaultNow = () => new Date();

/** "© <year> NativeGTM. All rights reserved.", with the year computed at render time. */
export function Footer({ links = [], now = defaultNow }: FooterProps) {
  // Pages are rendered to HTML when they are built: the year hydrates as rendered, then shows today's.
  const year = useCurrentYear(now);
  return (
    <footer className={styles.footer}>
      <Container className={styles.inner}>
        <Logo inverse />
        {links.length > 0 && (
          <nav aria-label="Footer">
            <ul className={styles.links}>
              {links.map((link) => (
                <li key={link.label}>
                  <Link to={link.to} className={styles.link}>
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        )}
        <p className={styles.legal}>
          © {year} {site.name}. All rights reserved.
        </p>
      </Container>
    </footer>
  );
}
