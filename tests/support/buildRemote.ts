import webpack from 'webpack';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createRemoteConfig } = require('@nativegtm/shared/build/webpack.js');

/**
 * Builds a remote with the same configuration as the real ones (production mode), from any package folder, into
 * `outputPath`. Used to deploy test doubles: a broken remote, or a changed build of a real one.
 */
export function buildRemote(options: { packageDir: string; name: string; outputPath: string }): Promise<void> {
  const config = createRemoteConfig({
    packageDir: options.packageDir,
    name: options.name,
    title: options.name,
    port: 0,
  });
  // Production builds are two compilations (the container and the page alone), both into the same folder.
  const configs: { output: { path: string } }[] = Array.isArray(config) ? config : [config];
  for (const compilation of configs) compilation.output.path = options.outputPath;
  return new Promise((resolve, reject) => {
    webpack(configs, (error, stats) => {
      if (error) return reject(error);
      if (stats?.hasErrors()) return reject(new Error(stats.toString({ all: false, errors: true })));
      return resolve();
    });
  });
}
