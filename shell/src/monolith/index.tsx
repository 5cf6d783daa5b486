// The monolith: the same shell (router, 404, error and loading screens) with the four pages imported statically
// into one bundle, no Module Federation. It is never deployed: `npm run bench` builds it (into dist-monolith/) as
// the zero-overhead reference the composed site is measured against.
import type { PageModule, RemoteName } from '@nativegtm/shared';
import * as CandidatesPage from '../../../candidates-mfe/src/Page';
import * as ComingSoonPage from '../../../coming-soon-mfe/src/Page';
import * as EmployersPage from '../../../employers-mfe/src/Page';
import * as JobsPage from '../../../jobs-mfe/src/Page';
import type { PageLoader } from '../remotes/pageLoader';
import { renderShell } from '../renderShell';

const pages: Record<RemoteName, PageModule> = {
  candidates: CandidatesPage,
  employers: EmployersPage,
  jobs: JobsPage,
  comingSoon: ComingSoonPage,
};

const staticPages: PageLoader = {
  load: (remote) => Promise.resolve(pages[remote]),
  preload: () => undefined,
  prefetch: () => undefined,
};

renderShell(staticPages);
