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

/**
 * A literal for nginx's `return`: single-quoted, and without `$`, which nginx would read as a variable, but for the
 * variables named (filled in as it answers). Line breaks are written as nginx's \n escape, so the literal is one line
 * of the configuration: indenting the block it sits in must not add spaces to the text served.
 * @param {string} text
 * @param {string[]} [variables] e.g. ["$nativegtm_cohort"]
 */
function nginxText(text, variables = []) {
  const literal = variables.reduce((rest, variable) => rest.split(variable).join(''), text);
  if (literal.includes('$')) throw new Error(`nginx text cannot contain "$": ${text}`);
  return `'${text.replace(/(['\\])/g, '\\$1').replace(/\n/g, '\\n')}'`;
}

module.exports = { quote, headerLines, nginxText };
