const { runtime } = require('webpack');

/**
 * The chunks a build loads from another origin (a remote's, from the shell's page) are requested with CORS
 * (`crossorigin="anonymous"`; every remote answers `Access-Control-Allow-Origin: *`). A browser hides the errors of a
 * script of another origin loaded without it: "Script error.", no file, no stack, and no unhandled rejection at all;
 * with it, the shell's field data can tell which remote threw.
 *
 * Scripts only, which is why this is not webpack's `output.crossOriginLoading`: that also marks the stylesheets
 * mini-css-extract loads, and a page's server-rendered head links its stylesheet without CORS, so the browser would
 * download the same file twice. The shell's federation runtime does the same for the scripts it adds (remote
 * entries, preloads: shell/src/remotes/trustedScriptUrls.ts), so a preload and the script it is for still match.
 */
class CorsScriptsPlugin {
  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    compiler.hooks.compilation.tap('CorsScriptsPlugin', (compilation) => {
      runtime.LoadScriptRuntimeModule.getCompilationHooks(compilation).createScript.tap(
        'CorsScriptsPlugin',
        (source) =>
          `${source}\nif (script.src.indexOf(window.location.origin + '/') !== 0) script.crossOrigin = 'anonymous';`,
      );
    });
  }
}

module.exports = { CorsScriptsPlugin };
