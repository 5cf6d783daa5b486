import styles from './SkillBadge.module.css';

/** The candidate rating levels the product assigns. */
export const skillLevels = ['Elite', 'Pro', 'Moderate', 'Basic'] as const;
export type SkillLevel = (typeof skillLevels)[number];

const tone: Record<string, string | undefined> = {
  Elite: styles.elite,
  Pro: styles.pro,
  Moderate: styles.moderate,
};

/**
 * A skill level as a badge: Elite purple, Pro blue, Moderate green, anything else grey. The level is always
 * written out, so the colour never carries the meaning alone.
 */
export function SkillBadge({ level }: { level: string }) {
  return <span className={[styles.badge, tone[level] ?? styles.other].join(' ')}>{level}</span>;
}
