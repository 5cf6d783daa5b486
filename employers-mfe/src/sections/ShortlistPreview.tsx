import { PreviewCard, SkillBadge } from '@nativegtm/design-system';
import styles from './ShortlistPreview.module.css';

const candidates = [
  { initials: 'AR', role: 'Enterprise Account Executive', level: 'Elite' },
  { initials: 'JM', role: 'Product Marketing Manager', level: 'Pro' },
  { initials: 'SK', role: 'Sales Engineer', level: 'Pro' },
  { initials: 'LT', role: 'Product Manager, SaaS', level: 'Moderate' },
] as const;

/** Illustration of a rated shortlist. */
export function ShortlistPreview() {
  return (
    <PreviewCard
      label="Example: a shortlist of AI-interviewed candidates with their ratings"
      title="Shortlist · AI-interviewed"
      tag="FREE"
      tagTone="success"
    >
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
    </PreviewCard>
  );
}
