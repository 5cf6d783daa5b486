import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/*
 * The colour pairs the components put together, checked against WCAG 2.2 AA: 4.5:1 for text, 3:1 for focus rings and
 * for the outlines that identify a form control. Changing a token that breaks a pair fails here, before any page
 * is built. (axe checks the rendered pages too, but cannot measure text over a gradient.)
 */
const css = readFileSync(join(__dirname, 'tokens.css'), 'utf8');
const hexTokens = new Map(
  [...css.matchAll(/--([a-z0-9-]+):\s*(#[0-9a-f]{6});/gi)].map((match) => [match[1]!, match[2]!]),
);

type Rgb = [number, number, number];

function rgb(name: string): Rgb {
  const hex = hexTokens.get(name);
  if (!hex) throw new Error(`--${name} is not a hex colour token`);
  return [1, 3, 5].map((start) => parseInt(hex.slice(start, start + 2), 16)) as Rgb;
}

/** `top` at `alpha` over `base`: the colour a translucent gradient stop paints. */
function over(top: Rgb, alpha: number, base: Rgb): Rgb {
  return top.map((channel, index) => Math.round(channel * alpha + base[index]! * (1 - alpha))) as Rgb;
}

function luminance(colour: Rgb): number {
  const [r, g, b] = colour.map((channel) => {
    const value = channel / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: Rgb, b: Rgb): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

const TEXT = 4.5;
const NON_TEXT = 3;

// The strongest tint each dark or light gradient reaches (the alphas are the ones in the stylesheets).
const darkWithBrandGlow = over(rgb('color-brand-600'), 0.45, rgb('color-surface-inverse'));
const darkWithAccentGlow = over(rgb('color-accent-500'), 0.22, rgb('color-surface-inverse'));
const lightWithBrandGlow = rgb('color-brand-100');

// Plain pairs read both colours from the tokens; a third entry is the painted background of a gradient.
const textPairs: [string, string, Rgb?][] = [
  ['color-ink-900', 'color-surface'],
  ['color-ink-700', 'color-surface'],
  ['color-ink-500', 'color-surface'],
  ['color-ink-500', 'color-surface-muted'],
  ['color-ink-500', 'color-brand-100'],
  ['color-ink-700', 'color-brand-100'],
  ['color-brand-700', 'color-surface'],
  ['color-brand-700', 'color-brand-50'],
  ['color-brand-800', 'color-brand-50'],
  ['color-brand-800', 'color-brand-100'],
  ['color-ink-inverse', 'color-brand-600'],
  ['color-ink-inverse', 'color-brand-700'],
  ['color-ink-inverse', 'color-accent-700'],
  ['color-ink-inverse', 'color-surface-inverse'],
  ['color-ink-inverse-muted', 'color-surface-inverse'],
  ['color-ink-inverse-muted', 'color-surface-inverse-raised'],
  ['color-brand-300', 'color-surface-inverse'],
  ['color-brand-300', 'color-surface-inverse-raised'],
  ['color-skill-elite-fg', 'color-skill-elite-bg'],
  ['color-skill-pro-fg', 'color-skill-pro-bg'],
  ['color-skill-moderate-fg', 'color-skill-moderate-bg'],
  ['color-skill-other-fg', 'color-skill-other-bg'],
  ['color-danger-700', 'color-danger-50'],
  ['color-ink-inverse-muted', 'dark surface with the brand glow', darkWithBrandGlow],
  ['color-ink-inverse-muted', 'dark surface with the accent glow', darkWithAccentGlow],
  ['color-brand-300', 'dark surface with the brand glow', darkWithBrandGlow],
  ['color-ink-500', 'light surface with the brand glow', lightWithBrandGlow],
];

const nonTextPairs: [string, string][] = [
  ['focus-ring-color', 'color-surface'],
  ['focus-ring-color', 'color-surface-muted'],
  ['focus-ring-color', 'color-brand-50'],
  ['focus-ring-color', 'color-brand-100'],
  ['focus-ring-color-inverse', 'color-surface-inverse'],
  ['focus-ring-color-inverse', 'color-surface-inverse-raised'],
  ['color-border-input', 'color-surface'],
  ['color-border-input', 'color-surface-muted'],
];

describe('colour contrast of the tokens', () => {
  // Rows padded to three entries: jest hands a shorter row's missing argument a `done` callback instead.
  it.each(textPairs.map(([foreground, background, painted]) => [foreground, background, painted ?? null] as const))(
    'text %s on %s reaches 4.5:1',
    (foreground, background, painted) => {
      expect(contrast(rgb(foreground), painted ?? rgb(background))).toBeGreaterThanOrEqual(TEXT);
    },
  );

  it.each(nonTextPairs)('%s against %s reaches 3:1', (foreground, background) => {
    expect(contrast(rgb(foreground), rgb(background))).toBeGreaterThanOrEqual(NON_TEXT);
  });

  it('needs the inverse focus ring on dark surfaces: the default one is too faint there', () => {
    expect(contrast(rgb('focus-ring-color'), rgb('color-surface-inverse'))).toBeLessThan(NON_TEXT);
  });
});
