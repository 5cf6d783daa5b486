import type { PageComponent } from '@nativegtm/shared';
import { ComingSoonPage } from './ComingSoonPage';

/** What this remote exposes as './Page' (the contract in @nativegtm/shared). */
const Page: PageComponent = ComingSoonPage;
export default Page;
