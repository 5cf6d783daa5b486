// ESLint rule: a relative import may not leave the package it is written in. Each folder listed in the root
// package.json's workspaces is built, tested and deployed on its own; reaching into another one's files by path would
// tie the two together behind the build's back. Import the other package by its name (and its exports) instead.
const path = require('node:path');
const { onImportSources } = require('./importSources');

const repoRoot = path.resolve(__dirname, '../../..');
/** @type {{ workspaces: string[] }} */
const { workspaces } = require(path.join(repoRoot, 'package.json'));
// Workspace entries are folders or globs (`*-mfe`, `shared/*`), matched against as many leading path segments.
const workspacePatterns = workspaces.map((entry) => ({
  depth: entry.split('/').length,
  pattern: new RegExp(`^${entry.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`),
}));

/**
 * The workspace folder a file belongs to (`shell`, `shared/server`), or null outside every workspace.
 * @param {string} file an absolute path
 * @returns {string | null}
 */
function packageOf(file) {
  const segments = path.relative(repoRoot, file).split(path.sep);
  for (const { depth, pattern } of workspacePatterns) {
    const folder = segments.slice(0, depth).join('/');
    if (segments.length > depth && pattern.test(folder)) return folder;
  }
  return null;
}

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'Disallow relative imports that leave the package (npm workspace) they are written in' },
    schema: [],
    messages: {
      leaves:
        "'{{source}}' leaves the package {{own}} ({{target}}): import another package by its name, never by a path.",
    },
  },
  create(context) {
    const file = context.filename;
    const own = packageOf(file);
    if (!own) return {};
    return onImportSources((node, source) => {
      if (!source.startsWith('.')) return;
      const target = packageOf(path.resolve(path.dirname(file), source));
      if (target === own) return;
      context.report({ node, messageId: 'leaves', data: { source, own, target: target ?? 'outside every package' } });
    });
  },
};

module.exports = { rule };
