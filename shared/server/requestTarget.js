// How the servers read a request line's target (the document server and the static files behind npm start).

/** What a target no URL parser can read stands for: no page, so the 404 document. */
const UNREADABLE = '/\u0000unreadable';

/**
 * The path and raw query of a request line's target, read as nginx reads it. Runs of slashes are one (a target
 * starting with "//" would otherwise be read as a host name); a backslash is a character of the path, not a
 * separator (URL parsers take it for "/", which would make a host name of what follows, or throw); "." and ".." segments
 * are resolved and percent-encoding decoded before matching; an absolute-form target ("GET http://host/employers")
 * counts by its path. The query is left exactly as sent: the variant rule reads it raw (pageVariant.js).
 * @param {string} target e.g. req.url
 * @returns {{ pathname: string, search: string }}
 */
function requestTarget(target) {
  let text = target;
  if (!text.startsWith('/')) {
    try {
      const absolute = new URL(text);
      text = `${absolute.pathname}${absolute.search}`;
    } catch {
      return { pathname: UNREADABLE, search: '' };
    }
  }
  const queryAt = text.indexOf('?');
  // Tabs and line breaks are characters of the path too: URL parsers drop them, which would join the slashes around
  // them into a "//" read as a host name, after the runs of slashes were made one.
  const rawPath = (queryAt === -1 ? text : text.slice(0, queryAt))
    .replace(/\\/g, '%5C')
    .replace(/[\t\n\r]/g, (char) => encodeURIComponent(char))
    .replace(/\/{2,}/g, '/');
  let pathname;
  try {
    pathname = new URL(rawPath, 'http://document.invalid').pathname;
  } catch {
    return { pathname: UNREADABLE, search: '' };
  }
  try {
    pathname = decodeURIComponent(pathname);
  } catch {
    // Malformed percent-encoding: matched as it is, so it is an unknown page.
  }
  return { pathname, search: queryAt === -1 ? '' : text.slice(queryAt) };
}

module.exports = { requestTarget };
