#!/usr/bin/env node
// `npm start` inside one package: serves that package's dist/ alone on its port (how a team previews a deploy).
// Usage: nativegtm-serve-package [--port <n>]   (run from the package folder)
const path = require('node:path');
const { readCommandLine, runCommand, UsageError, wholeNumberOption } = require('../commandLine');
const { configOrExit, serverConfig } = require('../config');
const { deployables } = require('../deployables');
const { createRemoteServer } = require('../remoteServer');
const { createShellServer } = require('../shellServer');
const { listen, close } = require('../httpServer');

const USAGE = 'nativegtm-serve-package [--port <n>]   (from a package folder: shell/, jobs-mfe/…)';

async function main() {
  const { values } = readCommandLine(process.argv.slice(2), {
    usage: USAGE,
    description: "Serves this package's dist/ alone, with the production server's headers.",
    options: { port: { type: 'string' } },
  });
  const dir = process.cwd();
  const deployable = deployables.find((candidate) => path.resolve(candidate.dir) === path.resolve(dir));
  if (!deployable) throw new UsageError(`${dir} is not one of the site's packages`);
  const port = wholeNumberOption(values.port, '--port', { min: 1, max: 65535 }) ?? deployable.port;
  const config = configOrExit(serverConfig);
  const root = path.join(dir, 'dist');
  const server =
    deployable.role === 'host'
      ? createShellServer({ root, name: deployable.name })
      : createRemoteServer({ root, name: deployable.name });
  await listen(server, port, deployable.name, config.HOST);
  console.log(`${deployable.name} serving dist/ on http://localhost:${port}`);
  const shutdown = () => close(server).then(() => process.exit(0));
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

runCommand(USAGE, main, { exitWhenDone: false });
