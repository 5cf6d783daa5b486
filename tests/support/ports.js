// The test site's ports: the npm start layout shifted by a base (default 4100), overridable with TEST_PORT_BASE.
const { deployables } = require('@nativegtm/shared/server/site.js');

const base = Number(process.env.TEST_PORT_BASE || 4100);

/** @type {Record<string, number>} package name → port */
const testPorts = Object.fromEntries(deployables.map((d) => [d.name, base + (d.port - 3000)]));

module.exports = { testPorts };
