// Webpack plugin: replaces the document's <script defer> tags (html-webpack-plugin's) with one small script,
// boot.js, that starts them once the server-rendered page has been painted. See boot.js for why.
const fs = require('node:fs');
const path = require('node:path');
const { createHash } = require('node:crypto');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const { CONTENT_HASH_LENGTH } = require('@nativegtm/contract/assetNames');
const { trustedTypesPolicies } = require('@nativegtm/contract/trustedTypes');

const BOOT_SOURCE = fs.readFileSync(path.join(__dirname, 'boot.js'), 'utf8');
// Named like the rest of the build's hashed files, so the servers cache it as immutable (@nativegtm/contract/assetNames).
const BOOT_FILE = `paint-first.${createHash('sha256').update(BOOT_SOURCE).digest('hex').slice(0, CONTENT_HASH_LENGTH)}.js`;

class PaintFirstPlugin {
  /** @param {{ fetches?: string[] }} options URLs the application fetches first: preloaded when the scripts start. */
  constructor({ fetches = [] } = {}) {
    this.fetches = fetches;
  }

  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('PaintFirstPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        // Before minification and compression, so the emitted file is minified and precompressed like the rest.
        { name: 'PaintFirstPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => compilation.emitAsset(BOOT_FILE, new sources.RawSource(BOOT_SOURCE), { immutable: true }),
      );
      HtmlWebpackPlugin.getHooks(compilation).alterAssetTagGroups.tap('PaintFirstPlugin', (data) => {
        /** @param {import('html-webpack-plugin').HtmlTagObject} tag */
        const isScript = (tag) => tag.tagName === 'script' && tag.attributes?.src;
        const tags = [...data.headTags, ...data.bodyTags].filter(isScript);
        const scripts = tags.map((tag) => tag.attributes.src);
        // Each script's integrity, in the same order (production builds: SubresourceIntegrityPlugin).
        const integrity = tags.map((tag) => tag.attributes.integrity).filter((value) => typeof value === 'string');
        if (integrity.length > 0 && integrity.length !== scripts.length)
          throw new Error('PaintFirstPlugin: some scripts have an integrity and others none');
        data.headTags = data.headTags.filter((tag) => !isScript(tag));
        data.bodyTags = data.bodyTags.filter((tag) => !isScript(tag));
        data.headTags.push({
          tagName: 'script',
          voidTag: false,
          attributes: {
            defer: true,
            src: `${compilation.outputOptions.publicPath}${BOOT_FILE}`,
            'data-scripts': scripts.join(' '),
            ...(integrity.length > 0 ? { 'data-integrity': integrity.join(' ') } : {}),
            ...(this.fetches.length > 0 ? { 'data-fetches': this.fetches.join(' ') } : {}),
            // boot.js is served as it is (no bundler): the name of its Trusted Types policy comes with its tag.
            'data-trusted-types-policy': trustedTypesPolicies.boot,
          },
          meta: { plugin: 'PaintFirstPlugin' },
        });
        return data;
      });
    });
  }
}

module.exports = { PaintFirstPlugin };
