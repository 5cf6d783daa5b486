import { OVERRIDE_END_PATH } from '@nativegtm/contract/overrides';
import { overridden } from '../remotes/overridden';
import styles from './Notice.module.css';

/**
 * Tells a developer whose browser overrides a remote with their dev server (`npm run dev -- <remote> --against`) where
 * that page comes from, that it renders in this browser only (the server never fetches from a dev server), and how to
 * go back to the live site. Nothing for anyone else. "End" is a document load: the server clears the cookies.
 */
export function OverrideNotice({ cookies = document.cookie }: { cookies?: string }) {
  const override = overridden(cookies);
  if (!override) return null;
  return (
    <aside className={styles.notice} aria-label="Override">
      <span>
        {override.remote} from <code className={styles.id}>{override.origin}</code>
        <span className={styles.detail}>, rendered in this browser</span>
      </span>{' '}
      <span className={styles.separator} aria-hidden="true">
        ·
      </span>{' '}
      <a className={styles.end} href={OVERRIDE_END_PATH}>
        End
      </a>
    </aside>
  );
}
