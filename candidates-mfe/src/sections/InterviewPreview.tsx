import { PreviewCard, SkillBadge } from '@nativegtm/design-system';
import styles from './InterviewPreview.module.css';

const scores = [
  { skill: 'Discovery & qualification', level: 'Elite' },
  { skill: 'AI tooling fluency', level: 'Pro' },
  { skill: 'Pipeline strategy', level: 'Pro' },
] as const;

/** Illustration of what a candidate gets from the interview. */
export function InterviewPreview() {
  return (
    <PreviewCard
      label="Example: an AI voice interview and the ratings it produces"
      title="AI voice interview"
      tag="15 min"
      live
      caption="Ratings: Elite, Pro, Moderate or Basic. Re-interview any time."
    >
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
    </PreviewCard>
  );
}
