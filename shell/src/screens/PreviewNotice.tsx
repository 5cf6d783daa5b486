import { remoteNames } from '@nativegtm/contract/remotes';
import { parse as parseCookies } from 'cookie';
import { PREVIEW_END_PATH, PREVIEW_NOTICE_COOKIE, parsePreviewNotice } from '@nativegtm/contract/releases';
import styles from './Notice.module.css';

/**
 * Which release this browser previews, and whether its gate failed, from the notice cookie the server sets beside its
 * own (HttpOnly) preview cookie: read once, since only a document load (`/_preview/…`) starts or ends a preview.
 */
function previewed(cookies: string) {
  return parsePreviewNotice(parseCookies(cookies)[PREVIEW_NOTICE_COOKIE], remoteNames);
}

/**
 * Tells a person previewing a release (named as the release commands name it: the remote and the id's first digits) (`npm run preview`) that the page they look at is not what visitors get, and
 * how to go back to the live site, and, loudly, when the release failed its gate (it opens only through a link made
 * for it). Nothing for anyone else. "End preview" is a document load: the server clears the cookies.
 */
export function PreviewNotice({ cookies = document.cookie }: { cookies?: string }) {
  const preview = previewed(cookies);
  if (!preview) return null;
  return (
    <aside className={styles.notice} aria-label="Preview">
      <span>
        Preview: {preview.remote} release <code className={styles.id}>{preview.id.slice(0, 8)}</code>
        {preview.failed && (
          <>
            {' '}
            <strong className={styles.failed}>FAILED the gate</strong>
          </>
        )}
      </span>
      <a className={styles.end} href={PREVIEW_END_PATH}>
        End preview
      </a>
    </aside>
  );
}
