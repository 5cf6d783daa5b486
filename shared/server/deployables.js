// The deployables and their default ports: the shell and one remote per page of the registry (shared/contract/pages.js).
// The addresses remotes.json, the integration tests and operators rely on (see the package table in the README).
const path = require('node:path');
const { pages } = require('@nativegtm/contract/pages');
const { SHELL_PORT } = require('@nativegtm/contract/ports');

const repoRoot = path.resolve(__dirname, '../..');

/**
 * @typedef {{ name: string, dir: string, port: number } & (
 *   | { role: 'host', remote?: undefined, route?: undefined }
 *   | { role: 'remote', remote: string, route: string }
 * )} Deployable
 *   remote: the Module Federation name, which is also the remote's key in remotes.json. route: the page it renders
 *   (both from shared/contract/pages.js, as the shell's route table). Every remote has both, the shell neither.
 */

/** @type {Deployable[]} */
const deployables = [
  { name: 'shell', dir: path.join(repoRoot, 'shell'), port: SHELL_PORT, role: 'host' },
  ...pages.map((page) => ({
    name: page.package,
    dir: path.join(repoRoot, page.package),
    port: page.port,
    role: /** @type {const} */ ('remote'),
    remote: page.remote,
    route: page.route,
  })),
];

/**
 * The file whose presence (and age) says a package's dist/ is a complete build.
 * @param {Deployable} deployable
 */
function buildMarker(deployable) {
  return path.join(deployable.dir, 'dist', deployable.role === 'host' ? 'index.html' : 'mf-manifest.json');
}

module.exports = { deployables, buildMarker, repoRoot };
