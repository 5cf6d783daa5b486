import type { RemoteName } from '@nativegtm/shared';
import { RemoteLoadError } from '../remotes/pageLoader';

/**
 * Loader failures are logged by the page loader (once, with the remote's name); this logs what is left: a page that
 * threw while rendering, named by the remote that owns it.
 */
export function logRouteError(error: unknown, remote: RemoteName | undefined): void {
  if (error instanceof RemoteLoadError) return;
  console.error(remote ? `[shell] Remote "${remote}": its page failed while rendering` : '[shell] Route error', error);
}
