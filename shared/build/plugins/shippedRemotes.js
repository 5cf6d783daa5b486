const { shippedRemotes } = require('@nativegtm/contract/remotesConfig');

/** Writes the shell's remotes.json from the registry of pages (shared/contract/pages.js). */
class ShippedRemotesPlugin {
  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('ShippedRemotesPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'ShippedRemotesPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () =>
          compilation.emitAsset(
            'remotes.json',
            new sources.RawSource(`${JSON.stringify(shippedRemotes(), null, 2)}\n`),
          ),
      );
    });
  }
}

module.exports = { ShippedRemotesPlugin };
