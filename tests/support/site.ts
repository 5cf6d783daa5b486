import type { Page } from 'playwright-core';
import { pages as registry } from '@nativegtm/contract/pages';
import { reactOwnsHeading } from './engines/inPage';

/** Ports of the test site, by package name (set by globalSetup). */
export const ports: Record<string, number> = JSON.parse(process.env.SITE_PORTS ?? '{}');

/** Where the test site keeps visitors' field data (set by globalSetup). */
export const fieldDataDir = process.env.SITE_FIELD_DATA_DIR ?? '';

export const shellUrl = (path = '/') => `http://localhost:${ports.shell}${path}`;

/** Which package serves each page route, and the heading that proves it rendered: the registry of pages. */
export const pages = registry.map((page) => ({ path: page.route, remotePackage: page.package, heading: page.heading }));

/** Collects console errors, so a test can assert on what the shell logged. */
export function collectConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return errors;
}

/**
 * Installs a stand-in for the React DevTools hook before any script runs. Every React renderer that loads
 * registers itself through it, so `window.__reactRenderers()` counts the copies of react-dom in the page.
 */
export async function countReactRenderers(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const renderers = new Map<number, unknown>();
    Object.defineProperty(window, '__REACT_DEVTOOLS_GLOBAL_HOOK__', {
      configurable: true,
      value: {
        renderers,
        supportsFiber: true,
        inject(renderer: unknown) {
          const id = renderers.size + 1;
          renderers.set(id, renderer);
          return id;
        },
        onScheduleFiberRoot() {},
        onCommitFiberRoot() {},
        onCommitFiberUnmount() {},
        onPostCommitFiberRoot() {},
        checkDCE() {},
      },
    });
    (window as unknown as { __reactRenderers: () => number }).__reactRenderers = () => renderers.size;
  });
}

/**
 * Client-side navigation to any path, as the router would do it for a link (no document load). Only once the app runs:
 * before that, the screen is the server's HTML and there is no router to tell.
 */
export async function navigateInApp(page: Page, path: string): Promise<void> {
  await untilHydrated(page);
  await page.evaluate((target) => {
    window.history.pushState({}, '', target);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/**
 * Waits until React owns the page's h1: the page's HTML is on screen from the server before any script runs, and a
 * test that clicks or types before hydration would test the plain HTML (a full page load) instead of the app.
 */
export async function untilHydrated(page: Page): Promise<void> {
  await page.waitForFunction(reactOwnsHeading, null);
  // The shell renders in a transition: its effects (the skip link's handler, focus management) run in a task after
  // the commit that gave React the h1. Idle means they have run.
  await page.evaluate(
    () =>
      new Promise((resolve) =>
        'requestIdleCallback' in window ? requestIdleCallback(resolve, { timeout: 1000 }) : setTimeout(resolve, 100),
      ),
  );
}
