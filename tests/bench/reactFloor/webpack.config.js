// The bench's React floor: the smallest React page, to tell how much of a start-up on Lighthouse's simulated phone is
// React DOM's own on this machine, whatever the site composes. `npm run bench` builds it into dist/ here and runs
// Lighthouse on it beside the site. Never deployed. Built like the deployables (@nativegtm/build/webpack's
// baseConfig: loaders, minifier, hashing) and started like the shell (PaintFirstPlugin); its document holds the
// page's server render.
const path = require('node:path');
const { createElement } = require('react');
const { renderToString } = require('react-dom/server');
const { baseConfig, PaintFirstPlugin } = require('@nativegtm/build/webpack');
const { FloorPage } = require('./floorPage');

const TITLE = 'React floor';

/**
 * @param {unknown} _env
 * @param {{ mode?: import('@nativegtm/build/webpack').Mode }} argv
 * @returns {import('@nativegtm/build/webpack').Configuration}
 */
module.exports = (_env, argv) => {
  const config = baseConfig({
    packageDir: __dirname,
    mode: argv.mode || 'production',
    port: 3000,
    publicPath: '/',
    title: TITLE,
    template: 'unused: the document is templateContent',
    buildId: 'react-floor',
    html: {
      templateContent:
        '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
        '<meta name="viewport" content="width=device-width,initial-scale=1">' +
        `<title>${TITLE}</title><meta name="description" content="The bench's smallest React page."></head>` +
        // Marked as a page rendered on the server (data-remote, data-build), as the site's documents are: the
        // scripts then start after the first paint, as they do on the site (PaintFirstPlugin's boot.js).
        `<body><div data-remote="react-floor" data-build="react-floor">${renderToString(createElement(FloorPage))}` +
        '</div></body></html>',
    },
  });
  config.entry = { main: path.join(__dirname, 'index.tsx') };
  config.output.uniqueName = 'react-floor';
  // React and React DOM in a file of their own, as the shell loads them: that file is compiled as it arrives, and
  // React DOM's module evaluated when the page's script runs; the hydration is in a task of its own (index.tsx).
  config.optimization = {
    ...config.optimization,
    splitChunks: { cacheGroups: { react: { test: /[\\/]node_modules[\\/]/, name: 'react', chunks: 'all' } } },
  };
  config.plugins.push(new PaintFirstPlugin());
  return config;
};
