import { Outlet, ScrollRestoration, useNavigation } from 'react-router-dom';
import { VisuallyHidden } from '@nativegtm/shared';
import { useDelayedFlag } from '../hooks/useDelayedFlag';
import { LOADING_INDICATOR_DELAY_MS } from './timing';
import styles from './ShellLayout.module.css';

/**
 * Everything the shell draws around a page: nothing visible but a progress bar while the next page's remote loads.
 * The current page stays on screen meanwhile, so navigation never flashes an empty screen.
 */
export function ShellLayout() {
  const navigation = useNavigation();
  const loading = useDelayedFlag(navigation.state === 'loading', LOADING_INDICATOR_DELAY_MS);
  return (
    <>
      {loading && (
        <div className={styles.progress} role="status">
          <div className={styles.bar} aria-hidden="true" />
          <VisuallyHidden>Loading page…</VisuallyHidden>
        </div>
      )}
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
