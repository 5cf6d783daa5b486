import type { RemoteName } from '@nativegtm/design-system';
import { reportRemoteFailure } from '../remotes/reportRemoteFailure';

/**
 * A screen that threw while rendering, named by the remote that owns it (or the shell's own code), in the console and,
 * for a remote's page, to the site's server. Load failures never get here: the page loader logs and reports them,
 * once, with the remote's name.
 */
export function logRouteError(error: unknown, remote: RemoteName | undefined): void {
  console.error(remote ? `[shell] Remote "${remote}": its page failed while rendering` : '[shell] Route error', error);
  if (remote) reportRemoteFailure(remote, error);
}
