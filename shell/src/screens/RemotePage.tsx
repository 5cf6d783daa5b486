import { useLoaderData, useMatches } from 'react-router-dom';
import type { PageModule } from '@nativegtm/shared';
import { PageSlot } from './PageSlot';

/** Renders the page module the route's loader fetched from its remote, in a slot of its own. */
export function RemotePage() {
  const { module } = useLoaderData() as { module: PageModule };
  const remote = (useMatches().at(-1)?.handle as { remote?: string } | undefined)?.remote ?? 'page';
  // A new slot (and React root) per remote: two pages never share one.
  return <PageSlot key={remote} remote={remote} module={module} />;
}
