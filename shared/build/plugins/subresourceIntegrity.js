const { createHash } = require('node:crypto');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const MiniCssExtractPlugin = require('mini-css-extract-plugin');
const { REFUSED_INTEGRITY } = require('@nativegtm/contract/integrity');
const { integrityOf } = require('../integrity');

const NAME = 'SubresourceIntegrityPlugin';

/**
 * A placeholder has the length of the integrity it stands for (`sha384-` and 64 characters), so replacing it moves
 * nothing: the source maps written before stay right. Its characters are ones minifiers leave alone in a string.
 */
const PLACEHOLDER_PREFIX = 'sha384-NGTMSRI';
const PLACEHOLDER = new RegExp(`${PLACEHOLDER_PREFIX}[0-9]{57}`, 'g');

/**
 * What a placeholder stands for: the file of a kind a chunk has (its name changes when webpack puts the real content
 * hash in it, after the placeholder is written), or a file by name.
 * @typedef {{ chunk: import('webpack').Chunk, kind: 'js' | 'css' } | { file: string }} Target
 */

/**
 * Every file a browser loads from this build carries the sha384 of its bytes, and is not run if they differ:
 *
 * - the chunks the build's own runtime loads later (scripts through webpack's loader, stylesheets through
 *   mini-css-extract's): the runtime holds a map of chunk to integrity, and a chunk the map lacks gets
 *   REFUSED_INTEGRITY, so it fails to load rather than loading unchecked;
 * - the scripts and stylesheets html-webpack-plugin writes into a document (`integrity`, `crossorigin`).
 *
 * This is what webpack-subresource-integrity does, which fails on federated builds ("unresolved integrity
 * placeholders", its issue #176): chunk ids and file contents are only final after webpack has put the real content
 * hashes in the names (RealContentHashPlugin), so the runtime is written with placeholders, replaced once every file
 * it names is final. A runtime's map never names a chunk with a runtime: no file's integrity depends on its own.
 *
 * `integrity.json`, the whole deployable's list for the store, is written after its last compilation (../ssr.js).
 */
class SubresourceIntegrityPlugin {
  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    const { Compilation, runtime, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap(NAME, (compilation) => {
      /** @type {Map<string, Target>} */
      const targets = new Map();
      /**
       * The same target always gets the same placeholder, whatever the order runtimes are written in: the content
       * hash in a runtime's name is computed over its placeholders.
       * @param {Target} target
       */
      const placeholder = (target) => {
        const key = 'file' in target ? `file:${target.file}` : `${target.kind}:${target.chunk.id}`;
        const digits = BigInt(`0x${createHash('sha256').update(key).digest('hex')}`) % 10n ** 57n;
        const value = `${PLACEHOLDER_PREFIX}${digits.toString().padStart(57, '0')}`;
        targets.set(value, target);
        return value;
      };

      /**
       * The runtime's map of chunk id to the integrity of its file of that kind, as a JavaScript expression.
       * @param {'js' | 'css'} kind
       */
      const chunkMap = (kind) => {
        const sourceType = kind === 'js' ? 'javascript' : 'css/mini-extract';
        const entries = [...compilation.chunks]
          .filter(
            (chunk) =>
              !chunk.hasRuntime() &&
              chunk.id !== null &&
              [...(compilation.chunkGraph.getChunkModulesIterableBySourceType(chunk, sourceType) ?? [])].length > 0,
          )
          .map((chunk) => [String(chunk.id), placeholder({ chunk, kind })]);
        return JSON.stringify(Object.fromEntries(entries));
      };
      const refused = JSON.stringify(REFUSED_INTEGRITY);

      runtime.LoadScriptRuntimeModule.getCompilationHooks(compilation).createScript.tap(
        NAME,
        (source) => `${source}\nscript.integrity = ${chunkMap('js')}[chunkId] || ${refused};`,
      );
      MiniCssExtractPlugin.getCompilationHooks(compilation).beforeTagInsert.tap(
        NAME,
        (source, { tag, chunkId }) => `${source}\n${tag}.integrity = ${chunkMap('css')}[${chunkId}] || ${refused};`,
      );

      /**
       * The placeholder for a file of this compilation, by its URL in a document.
       * @param {string} url
       */
      const fileTarget = (url) => {
        const publicPath = compilation.outputOptions.publicPath;
        const prefix = typeof publicPath === 'string' && publicPath !== 'auto' ? publicPath : '';
        const file = url.startsWith(prefix) ? url.slice(prefix.length).split('?')[0] : undefined;
        if (!file || !compilation.getAsset(file)) return undefined;
        const chunk = [...compilation.chunks].find((candidate) => candidate.files.has(file));
        const kind = file.endsWith('.css') ? 'css' : 'js';
        return placeholder(chunk ? { chunk, kind } : { file });
      };
      /** @param {import('html-webpack-plugin').HtmlTagObject} tag */
      const withIntegrity = (tag) => {
        const { src, href, rel, integrity } = tag.attributes;
        const url = tag.tagName === 'script' ? src : rel === 'stylesheet' ? href : undefined;
        if (typeof url !== 'string' || integrity !== undefined) return tag;
        const value = fileTarget(url);
        // A document's script or stylesheet that is no file of this build would load unchecked.
        if (value === undefined)
          throw new Error(`${NAME}: ${url} is not a file of this build, whose integrity it knows`);
        tag.attributes.integrity = value;
        tag.attributes.crossorigin = 'anonymous';
        return tag;
      };
      const html = HtmlWebpackPlugin.getHooks(compilation);
      // Here, so that plugins that take the scripts over (PaintFirstPlugin) find them with their integrity; and once
      // the groups are final, for the tags other plugins added.
      html.alterAssetTags.tap(NAME, (data) => {
        data.assetTags.scripts.forEach(withIntegrity);
        data.assetTags.styles.forEach(withIntegrity);
        return data;
      });
      html.alterAssetTagGroups.tap({ name: NAME, stage: 1000 }, (data) => {
        data.headTags.forEach(withIntegrity);
        data.bodyTags.forEach(withIntegrity);
        return data;
      });

      compilation.hooks.processAssets.tap(
        // After RealContentHashPlugin (OPTIMIZE_HASH): names and contents are final. Before compression
        // (OPTIMIZE_TRANSFER), so the precompressed copies hold the real values.
        { name: NAME, stage: Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_HASH + 1 },
        () => {
          /** @type {Map<string, string>} file to its text, for the files that still hold placeholders */
          const pending = new Map();
          for (const asset of compilation.getAssets()) {
            if (!/\.(js|css|html)$/.test(asset.name)) continue;
            const text = asset.source.source().toString();
            if (text.includes(PLACEHOLDER_PREFIX)) pending.set(asset.name, text);
          }
          /** @param {Target} target */
          const fileOf = (target) =>
            'file' in target ? target.file : [...target.chunk.files].find((file) => file.endsWith(`.${target.kind}`));
          // A file is filled in once every file it names is final: a document names runtimes, which name chunks.
          while (pending.size > 0) {
            const ready = [...pending].find(([, text]) =>
              [...text.matchAll(PLACEHOLDER)].every(([value]) => {
                const target = targets.get(value);
                const file = target && fileOf(target);
                return !file || !pending.has(file);
              }),
            );
            if (!ready) throw new Error(`${NAME}: files that name each other: ${[...pending.keys()].join(', ')}`);
            const [name, text] = ready;
            const filled = text.replace(PLACEHOLDER, (value) => {
              const target = targets.get(value);
              const file = target && fileOf(target);
              const asset = file ? compilation.getAsset(file) : undefined;
              if (!asset) throw new Error(`${NAME}: ${name} names a file this build did not write (${value})`);
              return integrityOf(asset.source.buffer());
            });
            compilation.updateAsset(name, new sources.RawSource(filled));
            pending.delete(name);
          }
        },
      );
    });
  }
}

module.exports = { SubresourceIntegrityPlugin };
