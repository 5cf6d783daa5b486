// How values are written in nginx's configuration language, for every part of the generator.

/**
 * A double-quoted string (nginx still expands `$variables` in it).
 * @param {unknown} value
 */
const quote = (value) => `"${String(value).replace(/(["\\])/g, '\\$1')}"`;

/**
 * nginx drops inherited add_header lines as soon as a location has its own, so every location lists them all.
 * @param {Record<string, string>} headers
 */
function headerLines(headers) {
  return Object.entries(headers)
    .map(([name, value]) => `add_header ${name} ${quote(value)} always;`)
    .join('\n');
}

module.exports = { quote, headerLines };
