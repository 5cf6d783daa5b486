/**
 * Typed access to the design tokens defined in tokens.css. The values live in CSS (that is where they are used);
 * TypeScript gets their names, so a typo is a type error rather than a silently missing style.
 */
export const tokenNames = [
  'color-ink-900',
  'color-ink-700',
  'color-ink-500',
  'color-ink-inverse',
  'color-ink-inverse-muted',
  'color-surface',
  'color-surface-muted',
  'color-surface-raised',
  'color-surface-inverse',
  'color-surface-inverse-raised',
  'color-border',
  'color-border-strong',
  'color-brand-50',
  'color-brand-100',
  'color-brand-300',
  'color-brand-600',
  'color-brand-700',
  'color-brand-800',
  'color-accent-500',
  'color-accent-700',
  'color-skill-elite-fg',
  'color-skill-elite-bg',
  'color-skill-pro-fg',
  'color-skill-pro-bg',
  'color-skill-moderate-fg',
  'color-skill-moderate-bg',
  'color-skill-other-fg',
  'color-skill-other-bg',
  'color-danger-700',
  'color-danger-50',
  'focus-ring-color',
  'focus-ring-color-inverse',
  'focus-ring-width',
  'focus-ring-offset',
  'font-family-sans',
  'font-family-mono',
  'font-size-xs',
  'font-size-sm',
  'font-size-md',
  'font-size-lg',
  'font-size-xl',
  'font-size-2xl',
  'font-size-3xl',
  'font-size-4xl',
  'font-size-5xl',
  'font-size-display',
  'font-weight-regular',
  'font-weight-medium',
  'font-weight-semibold',
  'font-weight-bold',
  'font-weight-extrabold',
  'line-height-tight',
  'line-height-snug',
  'line-height-normal',
  'letter-spacing-tight',
  'letter-spacing-wide',
  'space-1',
  'space-2',
  'space-3',
  'space-4',
  'space-5',
  'space-6',
  'space-8',
  'space-10',
  'space-12',
  'space-16',
  'space-20',
  'space-24',
  'layout-max-width',
  'layout-gutter',
  'header-height',
  'radius-sm',
  'radius-md',
  'radius-lg',
  'radius-xl',
  'radius-pill',
  'shadow-sm',
  'shadow-md',
  'shadow-lg',
  'shadow-brand',
  'duration-fast',
  'duration-normal',
  'easing-standard',
  'z-header',
  'z-overlay',
] as const;

export type TokenName = (typeof tokenNames)[number];

/** `token('color-brand-600')` → `'var(--color-brand-600)'`, for the rare style that must be set from TypeScript. */
export function token(name: TokenName): string {
  return `var(--${name})`;
}

/**
 * Breakpoints cannot be CSS variables (media queries do not read them), so they live here and the CSS repeats
 * only these numbers.
 */
export const breakpoints = {
  /** Below this width the landing header collapses its links behind the menu button. */
  navCollapse: 768,
} as const;
