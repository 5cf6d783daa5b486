/** @jest-environment node */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { createDocumentComposer } = require('./documentComposer');
const { createRemotesFile } = require('./remotesFile');

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-composer-'));
const remotesFile = path.join(root, 'remotes.json');
fs.writeFileSync(remotesFile, '{}');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** @param {{ reuseMs: number, folder?: string }} options */
function composer({ reuseMs, folder = root }) {
  return createDocumentComposer({
    root: folder,
    remotes: createRemotesFile(remotesFile),
    routes: [{ route: '/employers', remote: 'employers' }],
    origin: 'https://nativegtm.example',
    reuseMs,
  });
}

describe('the document composer', () => {
  beforeAll(() => fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><p>NativeGTM</p>'));

  it('hands a target asked for again within reuseMs the same document, and composes it again after', async () => {
    const documents = composer({ reuseMs: 100 });
    try {
      const first = documents.render('/employers');
      expect(documents.render('/employers')).toBe(first);
      expect(documents.render('/employers?utm_source=x')).not.toBe(first);
      expect(await first).toEqual({ status: 200, html: '<!doctype html><p>NativeGTM</p>', route: '/employers' });
      await new Promise((resolve) => setTimeout(resolve, 120));
      expect(documents.render('/employers')).not.toBe(first);
    } finally {
      documents.close();
    }
  });

  it('composes every request afresh with reuseMs 0, and never hands on a composition that failed', async () => {
    const documents = composer({ reuseMs: 0 });
    expect(documents.render('/employers')).not.toBe(documents.render('/employers'));
    documents.close();

    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-composer-empty-'));
    const failing = composer({ reuseMs: 10_000, folder: empty });
    try {
      const first = failing.render('/employers');
      await expect(first).rejects.toThrow(/index.html is missing/);
      expect(failing.render('/employers')).not.toBe(first);
      await expect(failing.render('/employers')).rejects.toThrow(/index.html is missing/);
    } finally {
      failing.close();
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
