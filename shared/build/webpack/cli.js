#!/usr/bin/env node
// `nativegtm-webpack`: webpack's command line, as every deployable's build and dev scripts run it (with webpack's
// arguments: `--mode production`, `serve`). This package owns webpack, webpack-cli and webpack-dev-server (which
// `serve` loads); a deployable runs them through a command of the package it declares, instead of the `webpack`
// command of a package it does not, found only because npm hoists it to the root.
//
// webpack-cli's command file reads process.argv itself. It has no type declarations and nothing is taken from it, so
// it is loaded by its resolved path (a plain require() of the name would ask TypeScript for its types).
require(require.resolve('webpack-cli/bin/cli.js'));
