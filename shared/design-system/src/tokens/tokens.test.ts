import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { token, tokenNames } from './tokens';

const css = readFileSync(join(__dirname, 'tokens.css'), 'utf8');
const declared = [...css.matchAll(/^\s*--([a-z0-9-]+):/gm)].map((match) => match[1]);

describe('design tokens', () => {
  it('exports exactly the variables tokens.css declares (no drift between CSS and TypeScript)', () => {
    expect([...new Set(declared)].sort()).toEqual([...tokenNames].sort());
  });

  it('turns a token name into a CSS variable reference', () => {
    expect(token('color-brand-600')).toBe('var(--color-brand-600)');
  });
});
