import type { PageComponent } from '@nativegtm/design-system';
import { ComingSoonPage } from './ComingSoonPage';

/** What this remote exposes as './Page' (the contract in @nativegtm/design-system): the page, its meta and its build. */
const Page: PageComponent = ComingSoonPage;
export default Page;
export { meta } from './meta';
export { buildId } from '@nativegtm/design-system/build-id';
