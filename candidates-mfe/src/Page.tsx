import type { PageComponent } from '@nativegtm/shared';
import { CandidatesPage } from './CandidatesPage';

/** What this remote exposes as './Page' (the contract in @nativegtm/shared). */
const Page: PageComponent = CandidatesPage;
export default Page;
