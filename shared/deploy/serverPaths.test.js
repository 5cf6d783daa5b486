/** @jest-environment node */
// The server's places named in an answer's texts, whole paths only.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { pathHider } = require('./serverPaths');

it('names a place and keeps what follows it, and leaves a longer name, a URL and a relative path alone', () => {
  const hide = pathHider({ store: '/srv/store/', scratch: '/tmp', browser: '/usr/bin/chromium', none: undefined });
  expect(hide("ENOENT: no such file or directory, open '/srv/store/jobs/0123/mf-manifest.json'")).toBe(
    "ENOENT: no such file or directory, open '<store>/jobs/0123/mf-manifest.json'",
  );
  expect(hide('the release store cannot be written at /srv/store (EACCES).')).toBe(
    'the release store cannot be written at <store> (EACCES).',
  );
  expect(hide('/usr/bin/chromium: not found; /usr/bin/chromium-browser is')).toBe(
    '<browser>: not found; /usr/bin/chromium-browser is',
  );
  for (const untouched of ['/srv/store2/jobs', '/srv/store.old/jobs', 'http://h/tmp/x', 'srv/store/jobs', '/tmpfs']) {
    expect(hide(untouched)).toBe(untouched);
  }
});

it('names a place inside another by its own name, and by the path its links lead to', () => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-paths-'));
  try {
    const store = path.join(scratch, 'store');
    fs.mkdirSync(store);
    const link = path.join(scratch, 'link');
    fs.symlinkSync(store, link);
    const hide = pathHider({ scratch, store: link });
    expect(hide(`${store}/jobs and ${link}/jobs and ${scratch}/x`)).toBe(
      '<store>/jobs and <store>/jobs and <scratch>/x',
    );
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
});
