// What previews and overrides (previews.js, overrides.js) both answer with: a pair of cookies, the one the server
// reads (HttpOnly) and its notice for the page, and a redirect or a plain refusal. nginx sets the same cookies
// (shared/tools/nginx), from these functions.
const cookie = require('cookie');

/** @typedef {import('node:http').ServerResponse} ServerResponse */

/**
 * The pair of cookies, set or cleared.
 * @param {{ server: string, notice: string }} names
 * @param {string} value empty to clear
 * @param {number} maxAge seconds, 0 to clear
 * @param {boolean} secure the site is served over https
 * @param {string} [notice] the notice's value, when it tells the page more than the server's cookie holds
 */
function cookiePair(names, value, maxAge, secure, notice = value) {
  // No encoding: a value is a remote's name and a release id or an origin, whose characters a cookie may hold as they
  // are, or nginx's variables standing for them (`$…`), which nginx fills in only as written.
  /** @type {import('cookie').SerializeOptions} */
  const attributes = { maxAge, path: '/', sameSite: 'lax', secure, encode: String };
  return [
    cookie.serialize(names.server, value, { ...attributes, httpOnly: true }),
    cookie.serialize(names.notice, notice, attributes),
  ];
}

/**
 * @param {ServerResponse} res
 * @param {string} location
 */
function redirect(res, location) {
  res.statusCode = 303;
  res.setHeader('Location', location);
  res.end();
}

/**
 * @param {ServerResponse} res
 * @param {number} status
 * @param {string} text one line
 */
function refuse(res, status, text) {
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.end(`${text}\n`);
}

module.exports = { cookiePair, redirect, refuse };
