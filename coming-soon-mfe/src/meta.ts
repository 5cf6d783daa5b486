import type { PageMeta } from '@nativegtm/design-system';

/** The page's title and description, in the document's head and in link previews. */
export const meta: PageMeta = {
  title: 'Coming Soon',
  description:
    'NativeGTM sign-in and hiring tools are coming soon. Join the early-access list or contact our recruiting team.',
};
