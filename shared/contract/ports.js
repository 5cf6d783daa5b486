// Where `npm start` serves each deployable: the shell on SHELL_PORT, each page remote on its registry port.
const { pages } = require('./pages');

/** The shell's port; pages take the ones after it. */
const SHELL_PORT = 3000;

/** The shell's package folder: its key in `portsFrom`. */
const SHELL_PACKAGE = 'shell';

/**
 * Each deployable's port when the site is served from `base` instead of SHELL_PORT (test sites, the bench, nginx's
 * --port-base), keyed by package folder: the registry's offsets, kept.
 * @param {number} base
 * @returns {Record<string, number>}
 */
function portsFrom(base) {
  return Object.fromEntries([
    [SHELL_PACKAGE, base],
    ...pages.map((page) => [page.package, base + (page.port - SHELL_PORT)]),
  ]);
}

/**
 * Where one remote's dev server listens when it runs inside a site (`npm run dev -- <remote>`): its registry port plus
 * this, clear of the site's own (`npm start` holds 3000-3004).
 */
const DEV_PORT_OFFSET = 100;

/** @param {{ port: number }} page */
const devPortOf = (page) => page.port + DEV_PORT_OFFSET;

module.exports = { SHELL_PORT, SHELL_PACKAGE, DEV_PORT_OFFSET, devPortOf, portsFrom };
