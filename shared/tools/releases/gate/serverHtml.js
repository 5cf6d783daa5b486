// The gate's check of the composed document: the release's route answers 200 with this release's HTML. The gate's
// site composes it as for a visitor, with more time (gateSite.js). A document that says nothing of the release (its
// page's HTML did not come in time even so, or the site failed to compose it) could not judge, and is asked for
// again (verdict.js).
const { bodyWrapperStart } = require('@nativegtm/contract/fragments');
const { fragmentTimedOut } = require('@nativegtm/server/fragmentTiming');
const { judgedInTwoTries } = require('./verdict');

const NAME = 'server HTML';
/** How long the gate waits for the document: its site answers within its fragment timeout unless it is stuck. */
const DOCUMENT_TIMEOUT_MS = 30_000;

/**
 * Why a document of the gate's site says nothing of the release, if it does not: its Server-Timing says its page's
 * HTML did not come in time (@nativegtm/server/fragmentTiming), or the site answered a server error (the composer
 * fails only for want of the live shell's files, never for a remote's). The browser's documents are read so too.
 * @param {string} route
 * @param {number} status
 * @param {string | null | undefined} timing its Server-Timing
 * @returns {string | undefined}
 */
function unjudgedDocument(route, status, timing) {
  if (status >= 500) return `${route}: the gate's site answered ${status}`;
  if (fragmentTimedOut(timing)) return `${route}: its page's HTML did not come in time (${timing})`;
  return undefined;
}

/**
 * @param {{ origin: string, remote: string, route: string, buildId: string }} options
 * @returns {Promise<import('./verdict').Outcome>}
 */
function serverHtmlCheck({ origin, remote, route, buildId }) {
  const wrapper = bodyWrapperStart(remote, buildId);
  return judgedInTwoTries(async () => {
    let response;
    let html;
    try {
      response = await fetch(new URL(route, origin), { signal: AbortSignal.timeout(DOCUMENT_TIMEOUT_MS) });
      html = await response.text();
    } catch (error) {
      // The gate's own site on loopback went away or is stuck: nothing of the release.
      const { cause } = /** @type {{ cause?: { code?: string } }} */ (error);
      return { name: NAME, undecided: `${route}: the gate's site did not answer (${cause?.code ?? String(error)})` };
    }
    const timing = response.headers.get('server-timing');
    const undecided = unjudgedDocument(route, response.status, timing);
    if (undecided) return { name: NAME, undecided };
    if (response.status === 200 && html.includes(wrapper)) return { name: NAME, ok: true };
    return {
      name: NAME,
      ok: false,
      detail:
        response.status === 200
          ? `${route} answered 200 without this release's HTML (build ${buildId}; ${timing ?? 'no Server-Timing'})`
          : `${route} answered ${response.status}`,
    };
  });
}

module.exports = { serverHtmlCheck, unjudgedDocument };
