#!/usr/bin/env node
// One remote's files served as `npm start` serves them, in a process of its own, so the soak can take it down, start it
// again and measure its memory apart. Usage: node tests/soak/remoteServer.js <dist folder> <port>
const { createRemoteServer } = require('@nativegtm/server/remoteServer');
const { listen } = require('@nativegtm/server/httpServer');

const [root, port] = process.argv.slice(2);
if (!root || !port) {
  console.error('usage: remoteServer.js <dist folder> <port>');
  process.exit(2);
}
listen(createRemoteServer({ root }), Number(port), 'soak remote').then(
  () => process.send?.('listening'),
  (error) => {
    console.error(error.message);
    process.exit(1);
  },
);
