import type { PageMeta } from '@nativegtm/design-system';

/** The page's title and description, in the document's head and in link previews. */
export const meta: PageMeta = {
  title: 'AI-native GTM jobs for candidates',
  description:
    'Land high-paying AI-native go-to-market jobs in sales, marketing and product: one AI voice interview, then introductions to companies hiring now.',
};
