// What the deploy API counts, for the operator's Prometheus: every answer by the action asked and its status (so a
// wave of 401 or 429 shows, or a team's promotes failing the gate), beside the process's own figures. Served on a
// listener of its own (DEPLOY_METRICS_PORT, loopback), never through the proxy the pipelines reach. No label holds a
// credential, a token's id, an address or a path: only the route's action and the status.
const client = require('prom-client');

function createDeployMetrics() {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const requests = new client.Counter({
    name: 'nativegtm_deploy_requests_total',
    help: "The deploy API's answers, by the action asked (none: no route) and status",
    labelNames: ['action', 'status'],
    registers: [registry],
  });
  return {
    registry,
    /**
     * @param {string} action a route's action, or 'none'
     * @param {number} status
     */
    answered: (action, status) => requests.inc({ action, status: String(status) }),
  };
}

/** @typedef {ReturnType<typeof createDeployMetrics>} DeployMetrics */

module.exports = { createDeployMetrics };
