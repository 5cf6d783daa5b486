import type { PageComponent } from '@nativegtm/shared';
import { EmployersPage } from './EmployersPage';

/** What this remote exposes as './Page' (the contract in @nativegtm/shared): the page, its meta and its build. */
const Page: PageComponent = EmployersPage;
export default Page;
export { meta } from './meta';
export { buildId } from '@nativegtm/shared/build-id';
