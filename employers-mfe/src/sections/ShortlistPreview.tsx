import { SkillBadge } from '@nativegtm/shared';
import styles from './ShortlistPreview.module.css';

const candidates = [
  { initials: 'AR', role: 'Enterprise Account Executive', level: 'Elite' },
  { initials: 'JM', role: 'Product Marketing Manager', level: 'Pro' },
  { initials: 'SK', role: 'Sales Engineer', level: 'Pro' },
  { initials: 'LT', role: 'Product Manager, SaaS', level: 'Moderate' },
] as const;

/** Illustration of a rated shortlist; the hero text carries the message in words. */
export function ShortlistPreview() {
  return (
    <figure className={styles.card} aria-label="Example: a shortlist of AI-interviewed candidates with their ratings">
      <div className={styles.header}>
        <span className={styles.title}>Shortlist · AI-interviewed</span>
        <span className={styles.free}>FREE</span>
      </div>
      <ul className={styles.rows}>
        {candidates.map(({ initials, role, level }) => (
          <li key={initials} className={styles.row}>
            <span className={styles.avatar} aria-hidden="true">
              {initials}
            </span>
            <span className={styles.role}>{role}</span>
            <SkillBadge level={level} />
          </li>
        ))}
      </ul>
    </figure>
  );
}
