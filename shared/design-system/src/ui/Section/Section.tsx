import { useId, type ReactNode } from 'react';
import { Container } from '../Container/Container';
import { KeepCompounds } from '../Text/KeepCompounds';
import styles from './Section.module.css';

export type SectionTone = 'plain' | 'muted' | 'inverse';

export interface SectionProps {
  /** The h2 that names the section (and labels it for assistive technology). */
  title: ReactNode;
  /** Short line above the title. */
  eyebrow?: ReactNode;
  /** One or two sentences under the title. */
  lead?: ReactNode;
  /** Background band: plain, muted (alternating bands read as separate chapters) or inverse (a call to action). */
  tone?: SectionTone;
  /** Buttons under the intro, for a section that is a call to action. */
  actions?: ReactNode;
  /** Small print under the actions ("No credit card required"). */
  note?: ReactNode;
  children?: ReactNode;
}

/**
 * One chapter of a landing page below the hero: a full-width band with a centred intro (eyebrow, h2, lead) and
 * its content. Every landing section shares it, so spacing and heading styles cannot drift between pages.
 */
export function Section({ title, eyebrow, lead, tone = 'plain', actions, note, children }: SectionProps) {
  const titleId = useId();
  return (
    <section className={[styles.section, styles[tone]].join(' ')} aria-labelledby={titleId}>
      <Container>
        <div className={styles.intro}>
          {eyebrow && <p className={styles.eyebrow}>{eyebrow}</p>}
          <h2 id={titleId} className={styles.title}>
            <KeepCompounds>{title}</KeepCompounds>
          </h2>
          {lead && <p className={styles.lead}>{lead}</p>}
          {actions && <div className={styles.actions}>{actions}</div>}
          {note && <p className={styles.note}>{note}</p>}
        </div>
        {children && <div className={styles.body}>{children}</div>}
      </Container>
    </section>
  );
}
