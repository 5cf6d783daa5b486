import { SkillBadge } from '@nativegtm/shared';
import styles from './InterviewPreview.module.css';

const scores = [
  { skill: 'Discovery & qualification', level: 'Elite' },
  { skill: 'AI tooling fluency', level: 'Pro' },
  { skill: 'Pipeline strategy', level: 'Pro' },
] as const;

/** Illustration of what a candidate gets from the interview; decorative, the hero text says it in words. */
export function InterviewPreview() {
  return (
    <figure className={styles.card} aria-label="Example: an AI voice interview and the ratings it produces">
      <div className={styles.header}>
        <span className={styles.live} aria-hidden="true" />
        <span className={styles.title}>AI voice interview</span>
        <span className={styles.duration}>15 min</span>
      </div>
      <div className={styles.wave} aria-hidden="true">
        {Array.from({ length: 28 }, (_, index) => (
          <span key={index} className={styles.bar} />
        ))}
      </div>
      <ul className={styles.scores}>
        {scores.map(({ skill, level }) => (
          <li key={skill} className={styles.score}>
            <span>{skill}</span>
            <SkillBadge level={level} />
          </li>
        ))}
      </ul>
      <figcaption className={styles.caption}>Ratings: Elite, Pro, Moderate or Basic. Re-interview any time.</figcaption>
    </figure>
  );
}
