// ESLint rule: one file-naming convention. File and folder names are camelCase (`pageVariant.js`, `newPage/`);
// a React component, its CSS Module and its test are PascalCase (`SiteHeader.tsx`, `SiteHeader.module.css`), and so
// is a component's folder. Exempt: a package's own folder (named like its npm package, `coming-soon-mfe`), names
// that tools or URLs fix (package.json, tsconfig.json, README.md, files under public/, docs/ and migrations/),
// dotfiles.
// The name is the part before the first dot: `webpack.config.js` is "webpack", `Button.test.tsx` is "Button".
const fs = require('node:fs');
const path = require('node:path');

const repoRoot = path.resolve(__dirname, '../../..');

const CAMEL = /^[a-z][a-zA-Z0-9]*$/;
const PASCAL = /^[A-Z][a-zA-Z0-9]*$/;
/** What a PascalCase file may be: a component, its test or its CSS Module. */
const COMPONENT_FILE = /\.(tsx|test\.tsx|module\.css)$/;
const FIXED_NAMES = new Set(['package.json', 'package-lock.json', 'README.md', 'CONTRIBUTING.md', 'LICENSE']);
/** Folders whose files are named by something else: URLs (public/), prose (docs/), a schema migration tool, which runs
 * them in the order of the timestamp their names start with (migrations/). */
const FREE_FOLDERS = new Set(['public', 'docs', 'migrations']);

/**
 * Why a repository file's name breaks the convention, or null.
 * @param {string} file relative to the repository root, with "/" separators
 * @param {(folder: string) => boolean} [isPackageFolder] whether that folder (relative) holds a package.json
 * @returns {string | null}
 */
function nameProblem(file, isPackageFolder = (folder) => fs.existsSync(path.join(repoRoot, folder, 'package.json'))) {
  const segments = file.split('/');
  const base = /** @type {string} */ (segments.pop());
  if (segments.some((segment) => FREE_FOLDERS.has(segment))) return null;
  for (let index = 0; index < segments.length; index += 1) {
    const folder = /** @type {string} */ (segments[index]);
    if (folder.startsWith('.') || isPackageFolder(segments.slice(0, index + 1).join('/'))) continue;
    if (!CAMEL.test(folder) && !PASCAL.test(folder)) return `folder "${folder}" is neither camelCase nor PascalCase`;
  }
  if (base.startsWith('.') || FIXED_NAMES.has(base) || /^tsconfig(\.[a-z]+)?\.json$/.test(base)) return null;
  const name = base.slice(0, base.includes('.') ? base.indexOf('.') : undefined);
  if (CAMEL.test(name)) return null;
  if (PASCAL.test(name)) {
    return COMPONENT_FILE.test(base) ? null : `"${base}": PascalCase is for React components (.tsx) and their styles`;
  }
  return `"${base}": file names are camelCase (PascalCase for React components)`;
}

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'suggestion',
    docs: { description: 'File and folder names follow the repository convention (camelCase; PascalCase components)' },
    schema: [],
    messages: { badName: '{{problem}} (convention: shared/build/eslint/fileNames.js).' },
  },
  create(context) {
    const relative = path.relative(repoRoot, context.filename).split(path.sep).join('/');
    if (relative.startsWith('..') || path.isAbsolute(relative)) return {};
    const problem = nameProblem(relative);
    if (!problem) return {};
    return { Program: (node) => context.report({ node, messageId: 'badName', data: { problem } }) };
  },
};

module.exports = { rule, nameProblem };
