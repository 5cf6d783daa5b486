import { SkillBadge, type SkillLevel } from '../SkillBadge/SkillBadge';
import styles from './StepList.module.css';

export interface StepItem {
  title: string;
  text: string;
  /** Rating levels to show with this step (the interview step shows what a candidate can be rated). */
  ratings?: readonly SkillLevel[];
}

export interface StepListProps {
  steps: readonly StepItem[];
}

/** A numbered process: a row of connected steps on wide screens, a vertical timeline on phones. */
export function StepList({ steps }: StepListProps) {
  // Three steps and five steps both fill one row (grid-auto-flow in the CSS). No style attribute: server-rendered
  // HTML must pass the CSP, which allows no inline styles.
  return (
    <ol className={styles.steps}>
      {steps.map((step, index) => (
        <li key={step.title} className={styles.step}>
          {/* The list already announces the position; the number is for the eye. */}
          <span className={styles.number} aria-hidden="true">
            {index + 1}
          </span>
          <div className={styles.body}>
            <h3 className={styles.title}>{step.title}</h3>
            <p className={styles.text}>{step.text}</p>
            {step.ratings && (
              <ul className={styles.ratings} aria-label="Ratings">
                {step.ratings.map((level) => (
                  <li key={level}>
                    <SkillBadge level={level} />
                  </li>
                ))}
              </ul>
            )}
          </div>
        </li>
      ))}
    </ol>
  );
}
