// The benchmark's one-bundle reference (see index.ts): `npm run bench` builds it into dist/ here.
const path = require('node:path');
const { createMonolithConfig } = require('@nativegtm/build/webpack');
const { deployables } = require('@nativegtm/server/deployables');

const shell = deployables.find((deployable) => deployable.role === 'host');

module.exports = (env, argv) =>
  createMonolithConfig({
    shellDir: shell.dir,
    entry: path.join(__dirname, 'index.ts'),
    outputPath: path.join(__dirname, 'dist'),
    mode: argv.mode || 'production',
  });
