// The subset of nginx's SSI the shell's index.html uses, so the built-in server composes documents from the very
// template nginx processes (see @nativegtm/tools/nginx):
//   <!--# block name="N" -->…<!--# endblock -->           defines what a failed include shows (and prints nothing)
//   <!--# include virtual="/path/$var?$args" stub="N" -->  the response of an internal request, or block N if empty
//   <!--# echo var="name" -->                             a variable, HTML-escaped (nginx's default encoding)
// Variables are substituted in `virtual`, as nginx does.

const { escapeHtml } = require('@nativegtm/contract/fragments');

const DIRECTIVE = /<!--#\s*(block|endblock|include|echo)((?:\s+[a-z]+="[^"]*")*)\s*-->/g;
const PARAM = /([a-z]+)="([^"]*)"/g;

/**
 * @param {string} text
 * @returns {Record<string, string | undefined>}
 */
function paramsOf(text) {
  return Object.fromEntries([...text.matchAll(PARAM)].map((match) => [match[1], match[2]]));
}

/**
 * stub: the text of the block the include names, as defined before it (nginx reads a template in one pass, so a later
 * block of the same name is another include's, and a block defined after the include is none).
 * @typedef {{ text: string } | { virtual: string, stub?: string } | { echo: string }} TemplatePart
 */
/** @typedef {{ parts: TemplatePart[] }} Template */

/**
 * Splits a template into text and includes once, so composing a document is a join.
 * @param {string} html
 * @returns {Template}
 */
function parseTemplate(html) {
  /** @type {TemplatePart[]} */
  const parts = [];
  /** @type {Record<string, string>} */
  const blocks = {};
  /** @type {{ name: string, start: number } | null} */
  let block = null;
  let last = 0;
  for (const match of html.matchAll(DIRECTIVE)) {
    const text = html.slice(last, match.index);
    last = match.index + match[0].length;
    const [, command, rawParams = ''] = match;
    const params = paramsOf(rawParams);
    if (command === 'block') {
      if (block) throw new Error('SSI: nested block');
      parts.push({ text });
      block = { name: /** @type {string} */ (params.name), start: last };
    } else if (command === 'endblock') {
      if (!block) throw new Error('SSI: endblock without block');
      blocks[block.name] = text;
      block = null;
    } else if (command === 'echo') {
      if (block) throw new Error('SSI: echo inside a block');
      parts.push({ text });
      parts.push({ echo: /** @type {string} */ (params.var) });
    } else {
      if (block) throw new Error('SSI: include inside a block');
      parts.push({ text });
      const stub = params.stub === undefined ? undefined : blocks[params.stub];
      parts.push({ virtual: /** @type {string} */ (params.virtual), stub });
    }
  }
  if (block) throw new Error(`SSI: block "${block.name}" is not closed`);
  parts.push({ text: html.slice(last) });
  return { parts: parts.filter((part) => !('text' in part) || part.text !== '') };
}

/**
 * Composes a parsed template: every include is resolved (in parallel) by `resolve(virtual)`, which answers the
 * include's HTML or '' when it failed.
 * @param {Template} template
 * @param {Record<string, string>} variables
 * @param {(virtual: string) => Promise<string>} [resolve]
 */
async function compose(template, variables, resolve = async () => '') {
  const substitute = (/** @type {string} */ virtual) =>
    virtual.replace(/\$([a-z_]+)/g, (_, /** @type {string} */ name) => variables[name] ?? '');
  const pieces = await Promise.all(
    template.parts.map(async (part) => {
      if ('text' in part) return part.text;
      if ('echo' in part) return escapeHtml(variables[part.echo] ?? '');
      const html = await resolve(substitute(part.virtual));
      return html === '' ? (part.stub ?? '') : html;
    }),
  );
  return pieces.join('');
}

module.exports = { parseTemplate, compose };
