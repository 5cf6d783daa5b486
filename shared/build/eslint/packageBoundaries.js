// ESLint rule: which packages a file may import. The packages of this repository are layered by runtime (see
// shared/README.md): the contract imports none of ours and nothing else; the design system only the contract (and
// React, its peers); browser code never the build or the servers, and no npm package but React's and the federation
// runtime's; the servers only the contract. layers.js says, per folder, what is allowed (of ours, from npm, of Node);
// this rule reports everything else.

const { onImportSources } = require('./importSources');

/** Our packages: the contract, design system, build, servers and tools, and the deployables (shell, remotes). */
const OURS = /^(@nativegtm\/[^/]+|shell|[a-z0-9-]+-mfe)(\/|$)/;

/**
 * @typedef {object} Allowed
 * @property {string} layer what the files are, for the message ("the contract", "browser code")
 * @property {string[]} ours which of our packages it may import: by name ("@nativegtm/contract"), or one export of
 *   a package by its full source when the layer needs that one alone ("@nativegtm/design-system/ssr/server-entry")
 * @property {false | string[]} external packages from npm: none, or these (never "any": each layer says which)
 * @property {boolean} builtins Node's own modules (node:fs, path…)
 */

/**
 * @param {string} source
 * @returns {string} the package a bare source names: "@scope/name" or "name"
 */
function packageName(source) {
  const [first = '', second = ''] = source.split('/');
  return first.startsWith('@') ? `${first}/${second}` : first;
}

/**
 * Why `source` is not allowed by `allowed`, or null.
 * @param {string} source
 * @param {Allowed} allowed
 * @param {(name: string) => boolean} isBuiltin
 * @returns {string | null}
 */
function refusal(source, allowed, isBuiltin) {
  if (source.startsWith('.') || source.startsWith('/')) return null;
  const name = packageName(source);
  if (OURS.test(source)) {
    const { ours } = allowed;
    return ours.includes(name) || ours.includes(source) ? null : `${allowed.layer} may not import ${source}`;
  }
  if (source.startsWith('node:') || isBuiltin(name)) {
    return allowed.builtins ? null : `${allowed.layer} may not use Node's ${name}`;
  }
  if (allowed.external && allowed.external.includes(name)) return null;
  return `${allowed.layer} may not depend on ${name}`;
}

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'Only import the packages a layer of the repository may depend on' },
    schema: [
      {
        type: 'object',
        properties: {
          layer: { type: 'string' },
          ours: { type: 'array', items: { type: 'string' } },
          external: { oneOf: [{ const: false }, { type: 'array', items: { type: 'string' } }] },
          builtins: { type: 'boolean' },
        },
        required: ['layer', 'ours', 'external', 'builtins'],
        additionalProperties: false,
      },
    ],
    messages: { refused: "'{{source}}': {{reason}} (see shared/README.md for who imports whom)." },
  },
  create(context) {
    const allowed = /** @type {Allowed} */ (context.options[0]);
    const { builtinModules } = require('node:module');
    const isBuiltin = (/** @type {string} */ name) => builtinModules.includes(name);
    return onImportSources((node, source) => {
      const reason = refusal(source, allowed, isBuiltin);
      if (reason) context.report({ node, messageId: 'refused', data: { source, reason } });
    });
  },
};

module.exports = { rule };
