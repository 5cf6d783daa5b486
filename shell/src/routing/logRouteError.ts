import type { RemoteName } from '@nativegtm/design-system';

/**
 * A screen that threw while rendering, named by the remote that owns it (or the shell's own code). Load failures never
 * get here: the page loader logs them, once, with the remote's name.
 */
export function logRouteError(error: unknown, remote: RemoteName | undefined): void {
  console.error(remote ? `[shell] Remote "${remote}": its page failed while rendering` : '[shell] Route error', error);
}
