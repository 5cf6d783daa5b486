// A remote's build as small as the release store accepts (mf-manifest.json, ssr/manifest.json and its page's HTML,
// an entry and a hashed chunk, and their integrity lists), for the store's unit tests: real builds take seconds, and the store only reads
// these files.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { INTEGRITY_FILE } = require('@nativegtm/contract/integrity');
const { integrityListOf } = require('../publish');

/** The folders written so far, for removeFakeBuilds. */
const written = new Set();

/**
 * Writes a build of `remote` into a new folder and returns it. `chunk` names its one content-hashed file; `body` is
 * its page's HTML (ssr/body/index.html).
 * @param {{ remote?: string, buildId?: string, chunk?: string, requiredReact?: string, body?: string }} [options]
 */
function fakeBuild({
  remote = 'jobs',
  buildId = 'build-1',
  chunk = 'page.0123456789.js',
  requiredReact = '^19.0.0',
  body = `<div data-build="${buildId}"></div>`,
} = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-fake-build-'));
  written.add(dir);
  const manifest = {
    name: remote,
    remoteEntry: { name: 'remoteEntry.js', path: '' },
    shared: [{ name: 'react', singleton: true, requiredVersion: requiredReact }],
    exposes: [{ path: './Page', assets: { js: { sync: [chunk], async: [] }, css: { sync: [], async: [] } } }],
  };
  fs.mkdirSync(path.join(dir, 'ssr', 'body'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'mf-manifest.json'), JSON.stringify(manifest));
  fs.writeFileSync(path.join(dir, 'ssr', 'body', 'index.html'), body);
  const fragments = integrityListOf(dir, 'fragments');
  fs.writeFileSync(
    path.join(dir, 'ssr', 'manifest.json'),
    JSON.stringify({ name: remote, buildId, query: {}, integrity: fragments }),
  );
  fs.writeFileSync(path.join(dir, 'remoteEntry.js'), `/* ${buildId} */`);
  // Its name stands for its content, as a content hash does.
  fs.writeFileSync(path.join(dir, chunk), `/* ${chunk} */`);
  fs.writeFileSync(path.join(dir, INTEGRITY_FILE), JSON.stringify(integrityListOf(dir)));
  return dir;
}

/** Removes every build fakeBuild wrote: call it after each test. */
function removeFakeBuilds() {
  for (const dir of written) fs.rmSync(dir, { recursive: true, force: true });
  written.clear();
}

module.exports = { fakeBuild, removeFakeBuilds };
