#!/usr/bin/env node
// `npm run deploy-api` (nativegtm-deploy-api): the deploy API on DEPLOY_API_HOST:DEPLOY_API_PORT (127.0.0.1:3900), in
// front of the store the release commands use. SIGTERM and Ctrl+C let the requests under way finish, then stop.
const { configOrExit } = require('@nativegtm/server/config');
const { readCommandLine, runCommand } = require('@nativegtm/server/commandLine');
const { deployConfig } = require('../config');
const { startDeployApi } = require('../deployServer');

const USAGE = 'npm run deploy-api';

runCommand(
  USAGE,
  async () => {
    readCommandLine(process.argv.slice(2), {
      usage: USAGE,
      description:
        'Serves the release commands over HTTP to credentials scoped to a remote (docs/releasing-from-ci.md).',
    });
    const api = await startDeployApi(configOrExit(deployConfig));
    const stop = () => {
      api.drain().then(() => process.exit(0));
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  },
  { exitWhenDone: false },
);
