import type { Page } from 'playwright-core';

/** From the narrowest phone the site supports to a wide desktop. */
export const layoutWidths = [320, 375, 414, 768, 1024, 1280, 1440, 1920] as const;

/**
 * Resizes the page through `widths` and returns those at which it scrolls sideways, with the overflow in pixels
 * and the widest element that sticks out (so a failure names its cause). Empty when the page fits every width.
 */
export async function sidewaysScrolling(
  page: Page,
  widths: readonly number[] = layoutWidths,
): Promise<{ width: number; overflow: number; culprit: string }[]> {
  const found = [];
  for (const width of widths) {
    await page.setViewportSize({ width, height: 900 });
    const result = await page.evaluate(() => {
      const root = document.documentElement;
      const overflow = root.scrollWidth - root.clientWidth;
      if (overflow <= 0) return { overflow, culprit: '' };
      const culprit = [...document.querySelectorAll('body *')]
        .filter((element) => element.getBoundingClientRect().right > root.clientWidth)
        .map((element) => `${element.tagName.toLowerCase()}.${element.className}`)
        .pop();
      return { overflow, culprit: culprit ?? '' };
    });
    if (result.overflow > 0) found.push({ width, ...result });
  }
  return found;
}
