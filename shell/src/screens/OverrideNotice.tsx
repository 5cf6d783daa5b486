import { useEffect, useState } from 'react';
import { OVERRIDE_END_PATH } from '@nativegtm/contract/overrides';
import { overridden } from '../remotes/overridden';
import { getRemotesConfig, type RemotesConfig } from '../remotes/remotesConfig';
import styles from './Notice.module.css';

/**
 * Tells a developer whose browser overrides a remote with their dev server (`npm run dev -- <remote> --against`) where
 * that page comes from, that it renders in this browser only (the server never fetches from a dev server), and how to
 * go back to the live site. Nothing for anyone else. Shown once this page's remotes.json names the dev server: a
 * cookie the site no longer honours (its OVERRIDE_ORIGINS changed) says nothing true. "End" is a document load: the
 * server clears the cookies.
 */
export function OverrideNotice({
  cookies = document.cookie,
  remotesConfig = getRemotesConfig,
}: {
  cookies?: string;
  remotesConfig?: () => Promise<RemotesConfig>;
}) {
  const override = overridden(cookies);
  const [honoured, setHonoured] = useState(false);
  const remote = override?.remote;
  const manifest = override && `${override.origin}/mf-manifest.json`;
  useEffect(() => {
    if (!remote) return undefined;
    let current = true;
    remotesConfig().then(
      (config) => current && setHonoured((config.entries as Record<string, string | undefined>)[remote] === manifest),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [remote, manifest, remotesConfig]);
  if (!override || !honoured) return null;
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
