import type { MouseEvent } from 'react';
import { focusElement, MAIN_CONTENT_ID } from './focus';
import styles from './SkipLink.module.css';

/**
 * The first Tab stop of every screen: jumps past the header to the page's main landmark. Rendered by the shell
 * around every page, so remotes only need `<main id="main-content">`.
 */
export function SkipLink() {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    const main = document.getElementById(MAIN_CONTENT_ID);
    if (!main) return;
    // A plain fragment jump would add a history entry the router treats as a navigation, and would leave focus
    // behind in Chromium and Safari (main is not focusable); moving focus is what the visitor asked for.
    event.preventDefault();
    focusElement(main);
  };
  return (
    <a href={`#${MAIN_CONTENT_ID}`} className={styles.skipLink} onClick={onClick}>
      Skip to main content
    </a>
  );
}
