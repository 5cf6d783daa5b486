// Where load balancers and orchestrators ask after a node, on both servers (the built-in one and nginx's generated
// configuration). Conventional names, so the probes of any platform find them without configuration.

/** The process serves: answers 200 "ok" while it accepts requests. */
const HEALTH_PATH = '/healthz';
/** The node can serve every page, for a balancer: its remotes.json readable and complete (readiness.js). */
const READINESS_PATH = '/readyz';
/** That, and every page's remote answering its manifest, for a rollout of the shell (readiness.js). */
const REMOTES_READINESS_PATH = '/readyz/remotes';

module.exports = { HEALTH_PATH, READINESS_PATH, REMOTES_READINESS_PATH };
