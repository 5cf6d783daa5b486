#!/usr/bin/env node
// `npm run new-page -- <name> <route>`: a new page remote, ready to build, serve, test and deploy. Creates
// <name>-mfe/ (templates.js), adds the page to the registry (shared/contract/pages.js), from which the contract, the shell's
// route table, the servers, the CSP, the nginx configuration, remotes.json and the tests take it, and adds the
// package to the TypeScript project references. What is left to a person is the page's content.
//
//   npm run new-page -- reviews /reviews            -> reviews-mfe, remote "reviews", next free port
//   options: --title "Customer Reviews"  --skip-install (no `npm install` afterwards)
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { readCommandLine, Refusal, runCommand, UsageError } = require('@nativegtm/server/commandLine');
const { files } = require('./templates');

const repoRoot = path.resolve(__dirname, '../../..');

const USAGE = 'npm run new-page -- <name> <route> [--title "Title"] [--skip-install]';

/** @param {string} name */
const camel = (name) => name.replace(/-([a-z0-9])/g, (_, /** @type {string} */ letter) => letter.toUpperCase());
/** @param {string} name */
const words = (name) => name.split('-').map((word) => word.charAt(0).toUpperCase() + word.slice(1));

/**
 * @param {string[]} argv
 * @returns {{ name: string, route: string, title?: string, skipInstall?: boolean }}
 */
function parseArgs(argv) {
  const { values, positionals } = readCommandLine(argv, {
    usage: USAGE,
    description: 'Creates <name>-mfe/, a page remote ready to build, and registers it in shared/contract/pages.js.',
    options: { title: { type: 'string' }, 'skip-install': { type: 'boolean' } },
    min: 2,
  });
  const [name = '', route = ''] = positionals;
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name)) {
    throw new UsageError(`name "${name}": lower-case words joined by "-" (reviews, case-studies)`);
  }
  if (!/^\/[a-z0-9-]+(\/[a-z0-9-]+)*$/.test(route)) throw new UsageError(`route "${route}": a path such as /reviews`);
  return { name, route, title: values.title, skipInstall: values['skip-install'] };
}

/**
 * Inserts the new entry before the registry's closing `]);`.
 * @param {{ remote: string, package: string, route: string, pathKey: string, port: number, title: string,
 *   heading: string }} entry
 * @returns {string} the registry's file
 */
function addToRegistry(entry) {
  const file = path.join(repoRoot, 'shared/contract/pages.js');
  const source = fs.readFileSync(file, 'utf8');
  const end = source.indexOf('\n]);');
  if (end < 0) throw new Refusal('shared/contract/pages.js: cannot find the end of the list of pages');
  const text = `  ${JSON.stringify(entry, null, 2)
    .replace(/\n/g, '\n  ')
    .replace(/"([a-zA-Z]+)":/g, '$1:')},`;
  fs.writeFileSync(file, `${source.slice(0, end)}\n${text}${source.slice(end)}`);
  return file;
}

/**
 * @param {string} tsconfigFile
 * @param {string} reference the referenced project's folder, relative to tsconfigFile
 * @returns {string} tsconfigFile
 */
function addReference(tsconfigFile, reference) {
  /** @type {{ references: { path: string }[] }} */
  const config = JSON.parse(fs.readFileSync(tsconfigFile, 'utf8'));
  config.references.push({ path: reference });
  fs.writeFileSync(tsconfigFile, `${JSON.stringify(config, null, 2)}\n`);
  return tsconfigFile;
}

/**
 * @param {string} command
 * @param {string[]} args
 */
function run(command, args) {
  const result = spawnSync(command, args, { cwd: repoRoot, stdio: 'inherit' });
  if (result.status !== 0) throw new Refusal(`\`${command} ${args.join(' ')}\` failed (exit ${result.status})`);
}

function main() {
  const { name, route, title = words(name).join(' '), skipInstall } = parseArgs(process.argv.slice(2));
  // Read fresh: the registry is this script's input, and it must see an entry added a moment ago.
  /** @type {typeof import('@nativegtm/contract/pages')} */
  const { pages } = require(path.join(repoRoot, 'shared/contract/pages.js'));
  const packageName = `${name}-mfe`;
  const remote = camel(name);
  const packageDir = path.join(repoRoot, packageName);
  if (fs.existsSync(packageDir)) throw new Refusal(`${packageName}/ exists already`);
  const taken = pages.find((page) => page.remote === remote || page.route === route || page.pathKey === remote);
  if (taken) throw new Refusal(`${taken.package} already has that name or route (${taken.remote}, ${taken.route})`);

  const port = Math.max(...pages.map((page) => page.port)) + 1;
  const component = `${words(name).join('')}Page`;
  // The new page depends on what the existing ones depend on, in the same versions.
  /** @type {{ dependencies: Record<string, string>, devDependencies: Record<string, string> }} */
  const { dependencies, devDependencies } = JSON.parse(
    fs.readFileSync(path.join(repoRoot, pages[0].package, 'package.json'), 'utf8'),
  );
  const written = [];
  for (const [file, content] of Object.entries(
    files({ name, packageName, remote, route, port, title, component, dependencies, devDependencies }),
  )) {
    const target = path.join(packageDir, file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, content);
    written.push(target);
  }
  written.push(addToRegistry({ remote, package: packageName, route, pathKey: remote, port, title, heading: title }));
  written.push(addReference(path.join(repoRoot, 'tsconfig.json'), packageName));
  written.push(addReference(path.join(repoRoot, 'tests/tsconfig.json'), `../${packageName}`));
  // Installing links the new workspace package, so the next build and the tests find it.
  if (!skipInstall) run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline']);
  run('npx', ['--no-install', 'prettier', '--log-level', 'warn', '--write', ...written]);

  console.log(`
Created ${packageName}/ (remote "${remote}", route ${route}, port ${port}) and registered it in shared/contract/pages.js.
Next: write the page in ${packageName}/src/${component}.tsx (and its meta.ts), then
  npm run build -w ${packageName} && npm start    # see it at http://localhost:3000${route}
  npm test -w ${packageName}`);
}

runCommand(USAGE, main);
