import { useLoaderData } from 'react-router-dom';
import type { PageComponent } from '@nativegtm/shared';

/** Renders the page component the route's loader fetched from its remote. */
export function RemotePage() {
  const { Page } = useLoaderData() as { Page: PageComponent };
  return <Page />;
}
