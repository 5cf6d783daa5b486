// What the deploy API counts, for the operator's Prometheus: every answer by the action asked and its status (so a
// wave of 401 or 429 shows, or a team's promotes failing the gate), beside the process's own figures. Served on a
// listener of its own (DEPLOY_METRICS_PORT, loopback), never through the proxy the pipelines reach. The canaries it
// drives are counted too, and those it carried on for an API that stopped. No label holds a credential, a token's id,
// an address or a path: only the route's action and the status.
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
  const carriedOn = new client.Counter({
    name: 'nativegtm_deploy_canaries_carried_on_total',
    help: 'Canaries this API took over from a deploy API that stopped driving them (a restart, a node lost)',
    registers: [registry],
  });
  /** @type {() => number} */
  let drivenNow = () => 0;
  new client.Gauge({
    name: 'nativegtm_deploy_canaries_driven',
    help: 'Canaries this API drives now',
    registers: [registry],
    collect() {
      this.set(drivenNow());
    },
  });
  return {
    registry,
    carriedOn: () => carriedOn.inc(),
    /** @param {() => number} count how many canaries the API drives now, read at each scrape */
    countDriven: (count) => {
      drivenNow = count;
    },
    /**
     * @param {string} action a route's action, or 'none'
     * @param {number} status
     */
    answered: (action, status) => requests.inc({ action, status: String(status) }),
  };
}

/** @typedef {ReturnType<typeof createDeployMetrics>} DeployMetrics */

module.exports = { createDeployMetrics };
