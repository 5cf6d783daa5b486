import { CardGrid } from '../CardGrid/CardGrid';
import { Icon, type IconName } from '../Icon/Icon';
import styles from './ReasonList.module.css';

export interface ReasonItem {
  title: string;
  text: string;
  icon: IconName;
}

export interface ReasonListProps {
  reasons: readonly ReasonItem[];
  /** A word shown with every item, e.g. "FREE" on the employers' offer. */
  tag?: string;
}

/** Reasons, benefits or features: an icon, a short title and a sentence each. */
export function ReasonList({ reasons, tag }: ReasonListProps) {
  return (
    <CardGrid>
      {reasons.map((reason) => (
        <div key={reason.title} className={styles.reason}>
          <span className={styles.icon}>
            <Icon name={reason.icon} />
          </span>
          <div className={styles.content}>
            {tag && <span className={styles.tag}>{tag}</span>}
            <h3 className={styles.title}>{reason.title}</h3>
            <p className={styles.text}>{reason.text}</p>
          </div>
        </div>
      ))}
    </CardGrid>
  );
}
