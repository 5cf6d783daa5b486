import { Button, Icon } from '@nativegtm/design-system';
import styles from './NoJobsFound.module.css';

/** The empty state (SPEC error catalogue): the message, a hint and the way back to every job. */
export function NoJobsFound({ onClear }: { onClear: () => void }) {
  return (
    <div className={styles.empty}>
      <span className={styles.illustration}>
        <Icon name="searchOff" className={styles.icon} />
      </span>
      <h2 className={styles.message}>No jobs found matching your criteria.</h2>
      <p className={styles.hint}>
        Try another job function or location, or clear the filters to see every featured job.
      </p>
      <Button onClick={onClear} className={styles.clear}>
        Clear Filters
      </Button>
    </div>
  );
}
