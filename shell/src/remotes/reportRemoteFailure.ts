import { REPORTS_PATH, integrityFailureReport, remoteFailureReport } from '@nativegtm/contract/reports';
import { fieldSignal } from '../fieldData/signals';

/**
 * Tells the site's server that a remote failed for this visitor (its load, or its page while rendering), so the
 * operators see what only this browser's console would otherwise know. A beacon: sent even as the visitor leaves,
 * never waited for, and nothing happens when the browser has none or refuses it. The build is the one whose
 * server-rendered HTML the document holds, when it holds that remote's. It also counts as an error of the page view in
 * field data, when this document is measured.
 */
export function reportRemoteFailure(remote: string, error: unknown): void {
  fieldSignal({ kind: 'remote-failure', remote });
  send(
    remoteFailureReport({
      remote,
      build: serverBuildOf(remote),
      route: location.pathname,
      message: error instanceof Error ? error.message : String(error),
    }),
  );
}

/**
 * Tells the site's server, and the console, that the browser refused a file of a remote for its bytes (refusedFiles.ts):
 * someone changed it where it is served, or a deploy went wrong. The same beacon as reportRemoteFailure.
 */
export function reportRefusedFile(remote: string, file: string): void {
  console.error(`[shell] Remote "${remote}": ${file} was refused, its bytes are not the ones its build listed`);
  send(integrityFailureReport({ remote, build: serverBuildOf(remote), route: location.pathname, file }));
}

/** The build of the remote whose server-rendered HTML the document holds, if it holds that remote's. */
const serverBuildOf = (remote: string) =>
  [...document.querySelectorAll<HTMLElement>('[data-remote]')].find((element) => element.dataset.remote === remote)
    ?.dataset.build;

function send(report: object): void {
  try {
    navigator.sendBeacon?.(REPORTS_PATH, new Blob([JSON.stringify(report)], { type: 'application/json' }));
  } catch {
    // A beacon the browser refuses (too large, a policy) is not worth a second failure.
  }
}
