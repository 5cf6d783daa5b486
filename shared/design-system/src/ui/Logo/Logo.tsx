import { useId } from 'react';
import { Link } from 'react-router-dom';
import { site } from '../../config/site';
import styles from './Logo.module.css';

export interface LogoProps {
  /** Light text for dark backgrounds. */
  inverse?: boolean;
}

/** The NativeGTM mark and wordmark. Drawn inline so it needs no request and no image host. */
export function Logo({ inverse = false }: LogoProps) {
  // Several logos can share a page (header and footer); each gradient needs its own id.
  const gradientId = useId();
  return (
    <span className={[styles.logo, inverse && styles.inverse].filter(Boolean).join(' ')}>
      <svg className={styles.mark} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <defs>
          <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" className={styles.gradientStart} />
            <stop offset="1" className={styles.gradientEnd} />
          </linearGradient>
        </defs>
        <rect width="32" height="32" rx="9" fill={`url(#${gradientId})`} />
        <path d="M9 22V10h2.6l6.2 7.6V10H20v12h-2.5l-6.3-7.7V22z M22.5 19.5h2.6V22h-2.6z" className={styles.glyph} />
      </svg>
      <span>
        Native<span className={styles.accent}>GTM</span>
      </span>
    </span>
  );
}

/** The logo as a link home, as it appears in headers. */
export function LogoLink({ inverse = false }: LogoProps) {
  return (
    <Link to="/" className={[styles.logo, styles.link].join(' ')} aria-label={`${site.name} home`}>
      <Logo inverse={inverse} />
    </Link>
  );
}
