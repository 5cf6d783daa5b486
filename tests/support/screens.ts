import type { Page } from 'playwright-core';
import { pages, ports, shellUrl, untilHydrated } from './site';

export interface Screen {
  name: string;
  path: string;
  heading: string;
  title: string;
  /** Whether the screen has the landing header with its menu button below 768 px. */
  menu: boolean;
  /** A remote made unreachable to reach the screen (the error screen). */
  downRemote?: string;
}

const titles: Record<string, string> = {
  '/': 'AI-native GTM jobs for candidates · NativeGTM',
  '/employers': 'Hire AI-native GTM talent · NativeGTM',
  '/featured-jobs': 'Featured Jobs · NativeGTM',
  '/coming-soon': 'Coming Soon · NativeGTM',
};

/** Every screen a visitor can meet: the four pages, the 404 page and the error screen. */
export const screens: readonly Screen[] = [
  ...pages.map((route) => ({
    name: route.path,
    path: route.path,
    heading: route.heading,
    title: titles[route.path]!,
    menu: route.path !== '/coming-soon',
  })),
  {
    name: '404',
    path: '/no-such-page',
    heading: 'Oops! Page not found',
    title: 'Page not found · NativeGTM',
    menu: false,
  },
  {
    name: 'error screen',
    path: '/featured-jobs',
    heading: 'Unexpected Application Error!',
    title: 'Something went wrong · NativeGTM',
    menu: false,
    downRemote: 'jobs-mfe',
  },
];

/** Opens a screen with a full page load and waits for its h1. */
export async function openScreen(page: Page, screen: Screen): Promise<void> {
  if (screen.downRemote) {
    await page.route(`http://localhost:${ports[screen.downRemote]}/**`, (route) => route.abort('connectionrefused'));
    // The shell logs the failure; that is expected here, not a test failure.
    page.on('console', () => undefined);
  }
  await page.goto(shellUrl(screen.path));
  await page.getByRole('heading', { level: 1, name: screen.heading }).waitFor();
  await untilHydrated(page);
}
