// The monolith: the same shell (router, 404, error and loading screens) with the four pages imported statically
// into one bundle, no Module Federation. It is never deployed: `npm run bench` builds it (webpack.config.js here,
// into dist/) as the zero-overhead reference the composed site is measured against. Every piece comes through its
// package's name: the pages as their remotes expose them, the shell's start-up as the shell exports it.
import * as CandidatesPage from 'candidates-mfe/Page';
import * as ComingSoonPage from 'coming-soon-mfe/Page';
import * as EmployersPage from 'employers-mfe/Page';
import * as JobsPage from 'jobs-mfe/Page';
import type { PageModule, RemoteName } from '@nativegtm/design-system';
import type { PageLoader } from 'shell/page-loader';
import { renderShell } from 'shell/render-shell';

// The four pages the benchmark measures; a page added since is not in the reference.
const pages: Partial<Record<RemoteName, PageModule>> = {
  candidates: CandidatesPage,
  employers: EmployersPage,
  jobs: JobsPage,
  comingSoon: ComingSoonPage,
};

const staticPages: PageLoader = {
  load: (remote) => {
    const page = pages[remote];
    return page ? Promise.resolve(page) : Promise.reject(new Error(`${remote} is not in the monolith`));
  },
  preload: () => undefined,
  prefetch: () => undefined,
};

renderShell(staticPages);
