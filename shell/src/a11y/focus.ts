/** Every page's main landmark carries this id (the skip link's target). */
export const MAIN_CONTENT_ID = 'main-content';

/**
 * Moves keyboard and screen-reader focus to an element that is not a control (a heading, the main landmark).
 * tabindex="-1" makes it focusable by script without adding a Tab stop.
 */
export function focusElement(element: HTMLElement, options?: FocusOptions): void {
  if (!element.hasAttribute('tabindex')) element.setAttribute('tabindex', '-1');
  element.focus(options);
}

/** Where a new page starts for someone who cannot see it: its h1, or its main landmark if it has none. */
export function pageStart(): HTMLElement | null {
  const main = document.getElementById(MAIN_CONTENT_ID);
  return main?.querySelector('h1') ?? main ?? document.querySelector('h1');
}
