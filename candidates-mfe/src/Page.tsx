import type { PageComponent } from '@nativegtm/shared';
import { CandidatesPage } from './CandidatesPage';

/** What this remote exposes as './Page' (the contract in @nativegtm/shared): the page, its meta and its build. */
const Page: PageComponent = CandidatesPage;
export default Page;
export { meta } from './meta';
export { buildId } from '@nativegtm/shared/build-id';
