// Reports browsers send to the site's origin: the CSP's violation reports (the Reporting API's `csp-violation` and
// the older `application/csp-report`), the shell's own report of a remote that failed to load or threw, and of a file
// of a remote the browser refused because its bytes were not the ones its build listed (./integrity.js). The shell
// writes them and the server reads them with these functions, so the two agree on the shape. A report is untrusted
// input: only known fields are kept, as short strings.

/** Where reports are sent, on the site's own origin. */
const REPORTS_PATH = '/_reports';
/** A report body larger than this is refused unread. */
const MAX_REPORT_BYTES = 16 * 1024;
/** What one field of a report may hold: longer text is cut. */
const MAX_FIELD_LENGTH = 300;
/** The name of the CSP's Reporting API endpoint (the `Reporting-Endpoints` header and `report-to`). */
const CSP_ENDPOINT_NAME = 'csp';

/**
 * @typedef {{ type: 'csp-violation', document: string, directive: string, blocked: string, disposition: string }}
 *   CspViolation
 * @typedef {{ type: 'remote-failure', remote: string, build: string, route: string, message: string }} RemoteFailure
 * @typedef {{ type: 'integrity-failure', remote: string, build: string, route: string, file: string }} IntegrityFailure
 *   file: the refused file's URL
 * @typedef {CspViolation | RemoteFailure | IntegrityFailure} Report
 */

/**
 * @param {unknown} value
 * @returns {string}
 */
function field(value) {
  if (typeof value !== 'string' && typeof value !== 'number') return '';
  const text = String(value).replace(/\p{Cc}/gu, ' ');
  return text.length > MAX_FIELD_LENGTH ? `${text.slice(0, MAX_FIELD_LENGTH)}…` : text;
}

/**
 * @param {unknown} value
 * @returns {Record<string, unknown>}
 */
const record = (value) =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? /** @type {Record<string, unknown>} */ (value)
    : {};

/**
 * The shell's report of a remote that failed (what it sends with navigator.sendBeacon).
 * @param {{ remote: string, build?: string, route: string, message: string }} failure
 * @returns {RemoteFailure}
 */
function remoteFailureReport({ remote, build = '', route, message }) {
  return {
    type: 'remote-failure',
    remote: field(remote),
    build: field(build),
    route: field(route),
    message: field(message),
  };
}

/**
 * The shell's report of a remote's file it refused: fetched again, its bytes were not the ones the remote's list names.
 * @param {{ remote: string, build?: string, route: string, file: string }} failure
 * @returns {IntegrityFailure}
 */
function integrityFailureReport({ remote, build = '', route, file }) {
  return {
    type: 'integrity-failure',
    remote: field(remote),
    build: field(build),
    route: field(route),
    file: field(file),
  };
}

/**
 * @param {unknown} body a Reporting API report's or an `application/csp-report`'s body
 * @returns {CspViolation | null}
 */
function cspViolation(body) {
  const report = record(body);
  const directive = field(report.effectiveDirective ?? report['effective-directive'] ?? report['violated-directive']);
  if (!directive) return null;
  return {
    type: 'csp-violation',
    document: field(report.documentURL ?? report['document-uri']),
    directive,
    blocked: field(report.blockedURL ?? report['blocked-uri']),
    disposition: field(report.disposition ?? 'enforce'),
  };
}

/**
 * The reports in a request body, or null when it holds none the site knows. Never throws.
 * @param {string} contentType the request's Content-Type
 * @param {string} text the body
 * @returns {Report[] | null}
 */
function parseReports(contentType, text) {
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const type = contentType.split(';')[0]?.trim().toLowerCase();
  /** @type {(Report | null)[]} */
  let reports;
  if (type === 'application/csp-report') {
    reports = [cspViolation(record(json)['csp-report'])];
  } else if (type === 'application/reports+json' && Array.isArray(json)) {
    reports = json
      .slice(0, 20)
      .map((item) => (record(item).type === 'csp-violation' ? cspViolation(record(item).body) : null));
  } else if (record(json).type === 'remote-failure') {
    const { remote, build, route, message } = record(json);
    const failure = remoteFailureReport({
      remote: field(remote),
      build: field(build),
      route: field(route),
      message: field(message),
    });
    reports = [failure.remote ? failure : null];
  } else if (record(json).type === 'integrity-failure') {
    const { remote, build, route, file } = record(json);
    const failure = integrityFailureReport({
      remote: field(remote),
      build: field(build),
      route: field(route),
      file: field(file),
    });
    reports = [failure.remote && failure.file ? failure : null];
  } else {
    return null;
  }
  const known = /** @type {Report[]} */ (reports.filter((report) => report !== null));
  return known.length > 0 ? known : null;
}

module.exports = {
  REPORTS_PATH,
  MAX_REPORT_BYTES,
  CSP_ENDPOINT_NAME,
  remoteFailureReport,
  integrityFailureReport,
  parseReports,
};
