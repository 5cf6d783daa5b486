// nginx configuration is nested blocks; each piece is written at its own level and indented where it is placed,
// rather than threading an indent string through every template.

const UNIT = '    ';

/**
 * The text with every non-empty line indented `depth` levels (four spaces each).
 * @param {string} text
 * @param {number} [depth]
 * @returns {string}
 */
function indent(text, depth = 1) {
  const prefix = UNIT.repeat(depth);
  return text
    .split('\n')
    .map((line) => (line === '' ? line : `${prefix}${line}`))
    .join('\n');
}

/**
 * A block: `header {`, the lines of `body` one level in, `}`.
 * @param {string} header e.g. "location = /robots.txt"
 * @param {(string | false | undefined)[]} body lines or groups of lines; false and undefined are left out
 * @returns {string}
 */
function block(header, body) {
  const inner = body.filter((part) => typeof part === 'string').join('\n');
  return `${header} {\n${indent(inner)}\n}`;
}

module.exports = { indent, block };
