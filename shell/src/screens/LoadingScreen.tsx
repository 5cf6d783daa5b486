import { useDelayedFlag } from '../hooks/useDelayedFlag';
import { LOADING_INDICATOR_DELAY_MS } from './timing';
import styles from './LoadingScreen.module.css';

/** What the first visit shows while a page's remote is on its way (after a short delay, so fast loads flash nothing). */
export function LoadingScreen() {
  const visible = useDelayedFlag(true, LOADING_INDICATOR_DELAY_MS);
  return (
    <div className={styles.screen}>
      {visible && (
        <div role="status" className={styles.status}>
          <span className={styles.spinner} aria-hidden="true" />
          Loading page…
        </div>
      )}
    </div>
  );
}
