import { useEffect } from 'react';
import { focusElement, MAIN_CONTENT_ID } from './focus';
import './SkipLink.module.css';

/** The skip link's markup, in index.html as the body's first element (and in tests that render the shell alone). */
export const SKIP_LINK_HTML = `<a class="skip-link" href="#${MAIN_CONTENT_ID}">Skip to main content</a>`;

/**
 * The first Tab stop of every screen jumps past the header to the page's main landmark. It is plain HTML in the
 * shell's index.html, not rendered by React: a page rendered on the server is on screen (and reachable by keyboard)
 * before any script has run, and without JavaScript too, where the fragment jump is all it does. Once the shell runs,
 * this moves focus instead.
 */
export function useSkipLink(): void {
  useEffect(() => {
    const link = document.querySelector<HTMLAnchorElement>('a.skip-link');
    if (!link) return undefined;
    const onClick = (event: MouseEvent) => {
      const main = document.getElementById(MAIN_CONTENT_ID);
      if (!main) return;
      // A plain fragment jump would add a history entry the router treats as a navigation, and would leave focus
      // behind in Chromium and Safari (main is not focusable); moving focus is what the visitor asked for.
      event.preventDefault();
      focusElement(main);
    };
    link.addEventListener('click', onClick);
    return () => link.removeEventListener('click', onClick);
  }, []);
}
