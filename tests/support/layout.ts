import type { Page } from 'playwright-core';

/** From the narrowest phone the site supports to a wide desktop. */
const layoutWidths = [320, 375, 414, 768, 1024, 1280, 1440, 1920] as const;

/**
 * Resizes the page through `widths` and returns those at which it scrolls sideways or a control sticks out of the
 * viewport (a section with overflow: hidden would clip it without any scrolling), naming the culprits. Empty when
 * the page fits every width.
 */
export async function sidewaysScrolling(
  page: Page,
  widths: readonly number[] = layoutWidths,
): Promise<{ width: number; overflow: number; culprits: string[] }[]> {
  const found = [];
  for (const width of widths) {
    await page.setViewportSize({ width, height: 900 });
    const result = await page.evaluate(() => {
      const root = document.documentElement;
      const describe = (element: Element) =>
        `${element.tagName.toLowerCase()} "${(element.textContent ?? '').trim().slice(0, 40)}"`;
      const overflow = root.scrollWidth - root.clientWidth;
      const culprits = [...document.querySelectorAll('a, button, select, input')]
        .filter((element) => {
          const box = element.getBoundingClientRect();
          return box.width > 1 && (box.left < 0 || box.right > root.clientWidth + 0.5);
        })
        .map(describe);
      if (overflow > 0 && culprits.length === 0) {
        const widest = [...document.querySelectorAll('body *')]
          .filter((element) => element.getBoundingClientRect().right > root.clientWidth)
          .pop();
        if (widest) culprits.push(describe(widest));
      }
      return { overflow, culprits };
    });
    if (result.overflow > 0 || result.culprits.length > 0) found.push({ width, ...result });
  }
  return found;
}
