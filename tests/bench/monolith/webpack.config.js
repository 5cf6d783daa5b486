// The benchmark's one-bundle reference (see index.ts): `npm run bench` builds it into dist/ here. The shell with the
// four pages imported statically, with the deployables' loaders, minifier and hashing (@nativegtm/build/webpack's
// baseConfig) and no Module Federation. Never deployed. It uses the shell's document template and public files, so
// both start from the same document.
const path = require('node:path');
const { baseConfig, copyPublicFiles, LinkAllStylesheetsPlugin, PaintFirstPlugin } = require('@nativegtm/build/webpack');
const { deployables } = require('@nativegtm/server/deployables');

const shell = deployables.find((deployable) => deployable.role === 'host');

/**
 * @param {unknown} _env
 * @param {{ mode?: import('@nativegtm/build/webpack').Mode }} argv
 * @returns {import('@nativegtm/build/webpack').Configuration}
 */
module.exports = (_env, argv) => {
  if (!shell) throw new Error('@nativegtm/server/deployables lists no shell');
  const config = baseConfig({
    packageDir: shell.dir,
    mode: argv.mode || 'production',
    port: 3000,
    publicPath: '/',
    title: 'NativeGTM',
    template: path.join(shell.dir, 'src/index.html'),
    // A fixed id: the benchmark's pre-rendered monolith marks the pages' server HTML with it, so this bundle hydrates it.
    buildId: 'monolith',
  });
  config.entry = { main: path.join(__dirname, 'index.ts') };
  config.output.path = path.join(__dirname, 'dist');
  config.output.uniqueName = 'shell-monolith';
  config.plugins.push(
    copyPublicFiles(),
    new LinkAllStylesheetsPlugin(),
    // The same start-up as the shell's, so the pre-rendered monolith remains a like-for-like reference.
    new PaintFirstPlugin(),
  );
  return config;
};
