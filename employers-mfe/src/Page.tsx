import type { PageComponent } from '@nativegtm/shared';
import { EmployersPage } from './EmployersPage';

/** What this remote exposes as './Page' (the contract in @nativegtm/shared). */
const Page: PageComponent = EmployersPage;
export default Page;
