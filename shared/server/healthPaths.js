// Where load balancers and orchestrators ask after a node, on both servers (the built-in one and nginx's generated
// configuration). Conventional names, so the probes of any platform find them without configuration.

/** The process serves: answers 200 "ok" while it accepts requests. */
const HEALTH_PATH = '/healthz';
/** The shell can compose every page: remotes.json readable and each remote's manifest answering (readiness.js). */
const READINESS_PATH = '/readyz';

module.exports = { HEALTH_PATH, READINESS_PATH };
