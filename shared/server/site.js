// The five deployables and their default ports: the addresses contract that remotes.json, the integration tests
// and operators rely on (see the package table in the README).
const path = require('node:path');

const repoRoot = path.resolve(__dirname, '../..');

/**
 * @typedef {{ name: string, dir: string, port: number, role: 'host' | 'remote', remote?: string, route?: string }} Deployable
 *   remote: the Module Federation name, which is also the remote's key in remotes.json. route: the page it renders
 *   (the shell's route table, shell/src/routeTable.ts, maps the same; a test keeps the two in step).
 */

/** @type {Deployable[]} */
const deployables = [
  { name: 'shell', dir: path.join(repoRoot, 'shell'), port: 3000, role: 'host' },
  {
    name: 'candidates-mfe',
    dir: path.join(repoRoot, 'candidates-mfe'),
    port: 3001,
    role: 'remote',
    remote: 'candidates',
    route: '/',
  },
  {
    name: 'employers-mfe',
    dir: path.join(repoRoot, 'employers-mfe'),
    port: 3002,
    role: 'remote',
    remote: 'employers',
    route: '/employers',
  },
  {
    name: 'jobs-mfe',
    dir: path.join(repoRoot, 'jobs-mfe'),
    port: 3003,
    role: 'remote',
    remote: 'jobs',
    route: '/featured-jobs',
  },
  {
    name: 'coming-soon-mfe',
    dir: path.join(repoRoot, 'coming-soon-mfe'),
    port: 3004,
    role: 'remote',
    remote: 'comingSoon',
    route: '/coming-soon',
  },
];

/** The file whose presence (and age) says a package's dist/ is a complete build. */
function buildMarker(deployable) {
  return path.join(deployable.dir, 'dist', deployable.role === 'host' ? 'index.html' : 'mf-manifest.json');
}

module.exports = { deployables, buildMarker, repoRoot };
