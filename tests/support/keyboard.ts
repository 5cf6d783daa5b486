import type { Page } from 'playwright-core';

export interface FocusedControl {
  /** The accessible name as far as the tests need it: aria-label, else the visible text. */
  name: string;
  tag: string;
  box: { x: number; y: number; width: number; height: number };
  outlineStyle: string;
  outlineWidth: number;
  outlineColor: string;
  /** The colour around the control, where its focus ring is drawn (the nearest ancestor with a background). */
  background: string;
  insideHeader: boolean;
}

/** What is focused now, or null when nothing is (the body). */
export function focused(page: Page): Promise<FocusedControl | null> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return null;
    const style = getComputedStyle(element);
    let background = 'rgb(255, 255, 255)';
    for (let node = element.parentElement; node; node = node.parentElement) {
      const colour = getComputedStyle(node).backgroundColor;
      const alpha = /rgba\(.*,\s*([\d.]+)\)$/.exec(colour)?.[1];
      if (alpha === undefined || Number(alpha) >= 0.5) {
        background = colour;
        break;
      }
    }
    const { x, y, width, height } = element.getBoundingClientRect();
    return {
      name: (element.getAttribute('aria-label') ?? element.innerText ?? '').replace(/\s+/g, ' ').trim(),
      tag: element.tagName.toLowerCase(),
      box: { x, y, width, height },
      outlineStyle: style.outlineStyle,
      outlineWidth: parseFloat(style.outlineWidth),
      outlineColor: style.outlineColor,
      background,
      insideHeader: element.closest('header') !== null,
    };
  });
}

/** Presses Tab (or Shift+Tab) `count` times, returning what each press focused. */
export async function tabThrough(page: Page, count: number, key = 'Tab'): Promise<(FocusedControl | null)[]> {
  const stops = [];
  for (let index = 0; index < count; index += 1) {
    await page.keyboard.press(key);
    stops.push(await focused(page));
  }
  return stops;
}

/** Every Tab stop of the page from the top, once each (stops when focus wraps round or leaves the page). */
export async function allTabStops(page: Page, limit = 80): Promise<FocusedControl[]> {
  const stops: FocusedControl[] = [];
  for (let index = 0; index < limit; index += 1) {
    await page.keyboard.press('Tab');
    const again = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      if (!element || element === document.body) return true;
      if (element.dataset.tabStopSeen) return true;
      element.dataset.tabStopSeen = 'true';
      return false;
    });
    if (again) break;
    stops.push((await focused(page))!);
  }
  return stops;
}

function channels(colour: string): [number, number, number] {
  const match = /^rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(colour);
  if (!match) throw new Error(`Cannot read the colour ${colour}`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

/** WCAG contrast ratio of two computed CSS colours (rgb()/rgba(), alpha ignored). */
export function contrastRatio(a: string, b: string): number {
  const luminance = (colour: string) => {
    const [r, g, bl] = channels(colour).map((channel) => {
      const value = channel / 255;
      return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}
