// The shell's 404 screen as a page module, for the build that renders it to HTML (shared/build/ssr.js): an unknown
// path then answers HTTP 404 with the screen in the document. In the browser the router renders NotFound itself.
import type { PageMeta } from '@nativegtm/design-system';
import { NotFound } from './NotFound';

export default NotFound;
export const meta: PageMeta = {
  title: 'Page not found',
  description: 'The page you are looking for does not exist or has moved.',
};
export { buildId } from '@nativegtm/design-system/build-id';
