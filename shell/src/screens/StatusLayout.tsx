import type { ReactNode } from 'react';
import { Container, Footer, landingNavLinks, LogoLink } from '@nativegtm/design-system';
import styles from './StatusLayout.module.css';

export interface StatusLayoutProps {
  /** Large visual above the title ("404", an icon). */
  eyebrow: ReactNode;
  title: string;
  children: ReactNode;
  actions: ReactNode;
}

/**
 * The frame of the shell's own screens (404 and the error screen): logo, one centred card, actions, and the site
 * footer with its links, so a visitor who landed on a dead end has every way on and the same landmarks as elsewhere.
 */
export function StatusLayout({ eyebrow, title, children, actions }: StatusLayoutProps) {
  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <Container>
          <LogoLink />
        </Container>
      </header>
      <main className={styles.main} id="main-content">
        <section className={styles.card} aria-labelledby="status-title">
          {eyebrow}
          <h1 className={styles.title} id="status-title">
            {title}
          </h1>
          <div className={styles.body}>{children}</div>
          <div className={styles.actions}>{actions}</div>
        </section>
      </main>
      <Footer links={landingNavLinks} />
    </div>
  );
}

export { styles as statusStyles };
