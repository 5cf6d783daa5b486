/** @jest-environment node */
// `npm run typecheck` (tsc -b) must see every line: each tracked JavaScript and TypeScript file belongs to a project
// of the build graph, strict, and JavaScript with checkJs. And those settings must catch a planted error.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const ts = require('typescript');

const repoRoot = path.resolve(__dirname, '../..');

/**
 * Every project `tsc -b` builds from the root tsconfig.json, with its parsed settings.
 * @returns {Map<string, import('typescript').ParsedCommandLine>}
 */
function projects() {
  /** @type {Map<string, import('typescript').ParsedCommandLine>} */
  const found = new Map();
  /** @param {string} configFile */
  const visit = (configFile) => {
    if (found.has(configFile)) return;
    const parsed = ts.getParsedCommandLineOfConfigFile(
      configFile,
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
          throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
        },
      },
    );
    if (!parsed) throw new Error(`cannot read ${configFile}`);
    found.set(configFile, parsed);
    for (const reference of parsed.projectReferences ?? []) visit(ts.resolveProjectReferencePath(reference));
  };
  visit(path.join(repoRoot, 'tsconfig.json'));
  return found;
}

describe('npm run typecheck', () => {
  it('checks every JavaScript and TypeScript file, strict, JavaScript with checkJs', () => {
    /** @type {Map<string, { strict: boolean, checkJs: boolean }>} */
    const checked = new Map();
    for (const parsed of projects().values()) {
      for (const file of parsed.fileNames) {
        checked.set(path.resolve(file), {
          strict: parsed.options.strict === true,
          checkJs: parsed.options.checkJs === true,
        });
      }
    }
    const tracked = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: repoRoot, encoding: 'utf8' })
      .split('\n')
      .filter((file) => /\.(js|ts|tsx)$/.test(file) && fs.existsSync(path.join(repoRoot, file)));
    const unchecked = tracked.filter((file) => {
      const settings = checked.get(path.join(repoRoot, file));
      return !settings || !settings.strict || (file.endsWith('.js') && !settings.checkJs);
    });
    expect(unchecked).toEqual([]);
  });

  it("catches a type error planted in a JavaScript file, with the Node packages' settings", () => {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-typecheck-'));
    try {
      fs.writeFileSync(
        path.join(scratch, 'tsconfig.json'),
        JSON.stringify({ extends: path.join(repoRoot, 'tsconfig.node.json'), include: ['*.js'] }),
      );
      fs.writeFileSync(
        path.join(scratch, 'planted.js'),
        '/** @param {string} route */\nfunction open(route) {\n  return route.length;\n}\nopen(42);\nmodule.exports = { open };\n',
      );
      const config = ts.getParsedCommandLineOfConfigFile(
        path.join(scratch, 'tsconfig.json'),
        {},
        {
          ...ts.sys,
          onUnRecoverableConfigFileDiagnostic: () => undefined,
        },
      );
      if (!config) throw new Error('cannot read the scratch tsconfig.json');
      const program = ts.createProgram(config.fileNames, { ...config.options, noEmit: true });
      const errors = ts.getPreEmitDiagnostics(program).map((diagnostic) => diagnostic.code);
      // TS2345: Argument of type 'number' is not assignable to parameter of type 'string'.
      expect(errors).toContain(2345);
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  });
});
