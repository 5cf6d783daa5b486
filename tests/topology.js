#!/usr/bin/env node
// `npm run topology [-- --base <port>]`: many nodes, one site, on this machine, to try (docs/many-nodes.md):
// PostgreSQL and s3rver as the store, three built-in nodes and an nginx node each serving its copy of it, HAProxy in
// front on --base (5400) and the four ports after it, Varnish on base + 8. Installs the system programs it needs as
// `npm test` does (or stops first with the command that does), prints every port it takes, the site's URL and a
// release command to paste; Ctrl+C stops it all and removes its folders. The builds are the checkout's (npm run build
// first).
const { readCommandLine, runCommand, wholeNumberOption } = require('@nativegtm/server/commandLine');
const { startTopology } = require('./support/topology');

const USAGE = 'npm run topology -- [--base <port>]';

/**
 * A value as one shell word: as it is when the shell would read it so, in single quotes otherwise.
 * @param {string} value
 */
const shellWord = (value) => (/^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`);

/**
 * The ports, one a line under a header, in columns.
 * @param {{ what: string, port: number }[]} ports
 */
function portTable(ports) {
  const width = Math.max(...ports.map((row) => row.what.length));
  return [`${'what'.padEnd(width)}  port`, ...ports.map((row) => `${row.what.padEnd(width)}  ${row.port}`)].join('\n');
}

runCommand(
  USAGE,
  async () => {
    const { values } = readCommandLine(process.argv.slice(2), {
      usage: USAGE,
      description: 'Starts PostgreSQL, object storage, four nodes and HAProxy in front of them, until Ctrl+C.',
      options: { base: { type: 'string' } },
    });
    const base = wholeNumberOption(values.base, '--base') ?? 5400;
    // Ctrl+C in a terminal signals the whole process group: the servers started below end by themselves, and this
    // process, which must outlive them, stops what is left (PostgreSQL runs in a session of its own) and removes the
    // folders. Listened for from the start, so that a Ctrl+C while it starts ends the same way; a second one while it
    // stops is ignored, so that it can finish.
    // A Ctrl+C while it starts ends the start there: a part spawned just after the signal never got it, and would
    // otherwise start, and every part after it, before anything stops.
    const signalled = new AbortController();
    const stopRequested = new Promise((resolve) => {
      for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
        process.on(signal, () => {
          signalled.abort();
          resolve(undefined);
        });
      }
    });
    /** @type {import('./support/topology').Topology} */
    let topology;
    try {
      topology = await startTopology({ base, log: (line) => console.log(line), signal: signalled.signal });
    } catch (error) {
      // What a Ctrl+C while it started broke is no failure: it stopped, as asked.
      if (!signalled.signal.aborted) throw error;
      console.log('Stopped.');
      return;
    }
    const variables = Object.entries({ ...topology.store, RELEASES_DIR: topology.commandsDir })
      .map(([name, value]) => `${name}=${shellWord(value)}`)
      .join(' ');
    console.log(`\nIt listens on:\n${portTable(topology.ports)}`);
    console.log(
      `\nThe site: ${topology.origin} (through the CDN: http://127.0.0.1:${topology.cdnPort})\n` +
        `Release to it: ${variables} npm run release -- jobs`,
    );
    console.log('Ctrl+C stops it.');
    await stopRequested;
    await topology.stop();
    console.log('Stopped.');
  },
  {},
);
