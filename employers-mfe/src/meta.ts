import type { PageMeta } from '@nativegtm/design-system';

/** The page's title and description, in the document's head and in link previews. */
export const meta: PageMeta = {
  title: 'Hire AI-native GTM talent',
  description:
    'Hire vetted AI-native go-to-market talent: sales, marketing and product people screened by AI voice interviews, with shortlists at no cost.',
};
