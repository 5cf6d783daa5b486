#!/usr/bin/env node
// `npm start` inside one package: serves that package's dist/ alone on its port (how a team previews a deploy).
// Usage: nativegtm-serve-package --port 3003   (run from the package folder)
const path = require('node:path');
const { deployables } = require('../deployables');
const { createDeployableServer } = require('../deployableHandler');
const { listen, close } = require('../httpServer');

async function main() {
  const dir = process.cwd();
  const deployable = deployables.find((candidate) => path.resolve(candidate.dir) === path.resolve(dir));
  if (!deployable) throw new Error(`${dir} is not one of the site's packages`);
  const flag = process.argv.indexOf('--port');
  const port = flag > -1 ? Number(process.argv[flag + 1]) : deployable.port;
  const server = createDeployableServer({
    root: path.join(dir, 'dist'),
    spa: deployable.role === 'host',
    cors: deployable.role === 'remote',
  });
  await listen(server, port, deployable.name);
  console.log(`${deployable.name} serving dist/ on http://localhost:${port}`);
  const shutdown = () => close(server).then(() => process.exit(0));
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((error) => {
  console.error(error.message);
  process.exit(1);
});
