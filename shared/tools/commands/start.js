#!/usr/bin/env node
// `npm start`: checks the configuration, builds what is not built, then serves the composed site on
// http://localhost:3000 (@nativegtm/server's serve: the cluster, its logs and metrics). A bad variable stops it before
// any build, one line per variable, exit 1.
const { configOrExit, serverConfig } = require('@nativegtm/server/config');
const { deployables } = require('@nativegtm/server/deployables');
const { createLogger } = require('@nativegtm/server/observability/logger');
const { serveSite } = require('@nativegtm/server/serve');
const { buildIfNeeded } = require('../buildIfNeeded');

const config = configOrExit(serverConfig);
const logger = createLogger({ level: config.LOG_LEVEL });
buildIfNeeded(deployables, { log: (line) => logger.info(line) });
void serveSite(config);
