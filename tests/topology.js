#!/usr/bin/env node
// `npm run topology [-- --base <port>]`: many nodes, one site, on this machine, to try (docs/many-nodes.md):
// PostgreSQL and s3rver as the store, three built-in nodes and an nginx node each serving its copy of it, HAProxy in
// front on --base (5400) and the four ports after it. Prints the site's URL and the store's variables for the release
// commands; Ctrl+C stops it all and removes its folders. The builds are the checkout's (npm run build first).
const { readCommandLine, runCommand, wholeNumberOption } = require('@nativegtm/server/commandLine');
const { startTopology } = require('./support/topology');

const USAGE = 'npm run topology -- [--base <port>]';

runCommand(
  USAGE,
  async () => {
    const { values } = readCommandLine(process.argv.slice(2), {
      usage: USAGE,
      description: 'Starts PostgreSQL, object storage, four nodes and HAProxy in front of them, until Ctrl+C.',
      options: { base: { type: 'string' } },
    });
    const base = wholeNumberOption(values.base, '--base') ?? 5400;
    const topology = await startTopology({ base, log: (line) => console.log(line) });
    const variables = Object.entries(topology.store)
      .map(([name, value]) => `${name}=${value}`)
      .join(' ');
    console.log(
      `\nThe site: ${topology.origin} (through the CDN: http://127.0.0.1:${topology.cdnPort})\nRelease to it: ${variables} RELEASES_DIR=<a scratch folder> npm run release -- jobs`,
    );
    console.log('Ctrl+C stops it.');
    await new Promise((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await topology.stop();
  },
  {},
);
