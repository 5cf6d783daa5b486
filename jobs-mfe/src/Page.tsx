import type { PageComponent } from '@nativegtm/shared';
import { FeaturedJobsPage } from './FeaturedJobsPage';

/** What this remote exposes as './Page' (the contract in @nativegtm/shared). */
const Page: PageComponent = FeaturedJobsPage;
export default Page;
