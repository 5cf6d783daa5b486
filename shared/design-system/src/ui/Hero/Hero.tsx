import { useId, type ReactNode } from 'react';
import { Container } from '../Container/Container';
import { KeepCompounds } from '../Text/KeepCompounds';
import { CheckIcon } from '../Icon/CheckIcon';
import styles from './Hero.module.css';

export interface HeroProps {
  /** Short line above the headline. */
  eyebrow: ReactNode;
  title: ReactNode;
  lead: ReactNode;
  bullets: readonly string[];
  actions: ReactNode;
  /** Small print under the actions ("No credit card required"). */
  note?: ReactNode;
  /** Illustration beside the text on wide screens, below it on phones. */
  aside?: ReactNode;
}

/** The opening section of a landing page: one h1, the promise, three benefits and the call to action. */
export function Hero({ eyebrow, title, lead, bullets, actions, note, aside }: HeroProps) {
  const titleId = useId();
  return (
    <section className={styles.hero} aria-labelledby={titleId}>
      <Container className={styles.inner}>
        <div className={styles.copy}>
          <p className={styles.eyebrow}>{eyebrow}</p>
          <h1 id={titleId} className={styles.title}>
            <KeepCompounds>{title}</KeepCompounds>
          </h1>
          <p className={styles.lead}>{lead}</p>
          <ul className={styles.bullets}>
            {bullets.map((bullet) => (
              <li key={bullet} className={styles.bullet}>
                <CheckIcon />
                {bullet}
              </li>
            ))}
          </ul>
          <div className={styles.actions}>{actions}</div>
          {note && <p className={styles.note}>{note}</p>}
        </div>
        {aside && <div className={styles.aside}>{aside}</div>}
      </Container>
    </section>
  );
}
