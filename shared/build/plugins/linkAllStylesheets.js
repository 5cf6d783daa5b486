const HtmlWebpackPlugin = require('html-webpack-plugin');

/**
 * Links every stylesheet of the shell's build (the design system's and the shell's screens') from index.html: a
 * document that arrives with a page's HTML must paint it styled before any script runs. The chunks' loaders find
 * these links and do not load the files again.
 */
class LinkAllStylesheetsPlugin {
  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    compiler.hooks.compilation.tap('LinkAllStylesheetsPlugin', (compilation) => {
      HtmlWebpackPlugin.getHooks(compilation).alterAssetTagGroups.tap('LinkAllStylesheetsPlugin', (data) => {
        const publicPath = compilation.outputOptions.publicPath;
        const linked = new Set(data.headTags.map((tag) => tag.attributes?.href));
        const stylesheets = Object.keys(compilation.assets)
          .filter((file) => file.endsWith('.css'))
          .sort()
          .map((file) => `${publicPath}${file}`)
          .filter((href) => !linked.has(href));
        for (const href of stylesheets) {
          data.headTags.push({
            tagName: 'link',
            voidTag: true,
            attributes: { rel: 'stylesheet', href },
            meta: { plugin: 'LinkAllStylesheetsPlugin' },
          });
        }
        return data;
      });
    });
  }
}

module.exports = { LinkAllStylesheetsPlugin };
