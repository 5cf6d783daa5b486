// The module sources a file imports, whichever syntax it uses: ES imports and re-exports, dynamic import(),
// CommonJS require() and require.resolve() and TypeScript's import types. Each lint rule about imports reads them
// through this one helper. require.resolve() counts: a path resolved from a package is loaded from it all the same
// (a loader, a jest transform, a script the code starts).

/**
 * @typedef {import('eslint').Rule.Node} Node
 * @param {(node: Node, source: string) => void} check called with the node that holds each source
 * @returns {import('eslint').Rule.RuleListener}
 */
function onImportSources(check) {
  /** @param {any} node */
  const literal = (node) => {
    if (node?.type === 'Literal' && typeof node.value === 'string') check(node, node.value);
  };
  return {
    ImportDeclaration: (node) => literal(node.source),
    ExportAllDeclaration: (node) => literal(node.source),
    ExportNamedDeclaration: (node) => literal(node.source),
    ImportExpression: (node) => literal(node.source),
    'CallExpression[callee.name="require"]': (/** @type {any} */ node) => literal(node.arguments[0]),
    'CallExpression[callee.object.name="require"][callee.property.name="resolve"]': (/** @type {any} */ node) =>
      literal(node.arguments[0]),
    TSImportType: (/** @type {any} */ node) => literal(node.argument?.literal ?? node.argument),
  };
}

module.exports = { onImportSources };
