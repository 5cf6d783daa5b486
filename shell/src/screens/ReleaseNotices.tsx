import { OverrideNotice } from './OverrideNotice';
import { PreviewNotice } from './PreviewNotice';
import styles from './ReleaseNotices.module.css';

/**
 * What tells a person that the page in front of them is not what visitors get: a preview of a release, a remote served
 * from their dev server, or both, one above the other in a corner.
 */
export function ReleaseNotices() {
  return (
    <div className={styles.notices}>
      <PreviewNotice />
      <OverrideNotice />
    </div>
  );
}
