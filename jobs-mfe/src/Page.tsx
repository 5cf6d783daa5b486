import type { PageComponent } from '@nativegtm/shared';

const Page: PageComponent = () => <main><h1>temporary</h1></main>;
export default Page;
