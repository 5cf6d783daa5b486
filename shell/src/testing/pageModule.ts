import type { PageComponent, PageModule } from '@nativegtm/design-system';

/** A remote's page module as the page loader returns it, around a test's page component. */
export function pageModule(Page: PageComponent, buildId = 'test-build'): PageModule {
  return { default: Page, meta: { title: 'Test page', description: 'A page in a test.' }, buildId };
}
