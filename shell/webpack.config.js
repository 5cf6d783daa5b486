const { createMonolithConfig, createShellConfig } = require('@nativegtm/shared/build/webpack.js');

// `--env monolith` builds the benchmark's one-bundle reference (dist-monolith/) instead of the host.
module.exports = (env, argv) =>
  (env.monolith ? createMonolithConfig : createShellConfig)({
    packageDir: __dirname,
    port: 3000,
    mode: argv.mode || 'production',
  });
