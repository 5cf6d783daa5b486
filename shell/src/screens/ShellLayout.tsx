import { useCallback, type ReactNode } from 'react';
import { VisuallyHidden } from '@nativegtm/design-system';
import { RouteAnnouncer } from '../a11y/RouteAnnouncer';
import { ScreenRenderedContext } from '../a11y/screenRendered';
import { useSkipLink } from '../a11y/useSkipLink';
import { useFocusOnNavigation } from '../a11y/useFocusOnNavigation';
import { useDelayedFlag } from '../hooks/useDelayedFlag';
import { useNavigationStatus } from '../routing/navigationContext';
import { useScrollRestoration, type ScrollInputs } from '../routing/useScrollRestoration';
import { LOADING_INDICATOR_DELAY_MS } from './timing';
import { ReleaseNotices } from './ReleaseNotices';
import styles from './ShellLayout.module.css';

/**
 * Everything the shell draws around a page: nothing visible but a progress bar while the next page's remote loads.
 * The current page stays on screen meanwhile, so navigation never flashes an empty screen. For keyboard and
 * screen-reader users it adds the skip link, focus on the new page's heading and an announcement of its title. A
 * person previewing a release, or overriding a remote with a dev server, sees so (ReleaseNotices).
 */
export function ShellLayout({ scroll, children }: { scroll: ScrollInputs; children: ReactNode }) {
  const loading = useDelayedFlag(useNavigationStatus().loading, LOADING_INDICATOR_DELAY_MS);
  const [announcement, focusOnRendered] = useFocusOnNavigation();
  const scrollOnRendered = useScrollRestoration(scroll);
  const screenRendered = useCallback(
    (pathname: string, key: string | undefined) => {
      scrollOnRendered(key);
      focusOnRendered(pathname);
    },
    [scrollOnRendered, focusOnRendered],
  );
  useSkipLink();
  return (
    <>
      {loading && (
        <div className={styles.progress} role="status">
          <div className={styles.bar} aria-hidden="true" />
          <VisuallyHidden>Loading page…</VisuallyHidden>
        </div>
      )}
      <ScreenRenderedContext value={screenRendered}>{children}</ScreenRenderedContext>
      <RouteAnnouncer announcement={announcement} />
      <ReleaseNotices />
    </>
  );
}
