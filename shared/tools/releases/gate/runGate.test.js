/** @jest-environment node */
// The gate judges the release, not the machine: promoted through a folder store, a release is gated in a real gate
// site (the built-in servers, on loopback) whose shell and other remotes are small builds of this test, the release's
// remote holding its page's HTML back as a busy machine would. The browser is left out (its checks pass here): what
// is judged is the document the site composes.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { bodyWrapperStart } = require('@nativegtm/contract/fragments');
const { Undecided } = require('@nativegtm/server/commandLine');
const { openFolderStore } = require('@nativegtm/store/folderStore');
const { ReleaseError } = require('@nativegtm/store/operations');
const { fakeBuild, removeFakeBuilds } = require('@nativegtm/store/testing/fakeBuild');

/** Where the live site's builds are: the shell's and each remote's dist/, by deployable name. */
const mockSite = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-gate-site-'));
/** How long the release's remote holds each ssr/body file back before it answers. */
let mockBodyDelayMs = 0;

jest.mock('@nativegtm/server/deployables', () => {
  const actual = jest.requireActual('@nativegtm/server/deployables');
  const { join } = jest.requireActual('node:path');
  return {
    ...actual,
    deployables: actual.deployables.map((/** @type {{ name: string }} */ deployable) => ({
      ...deployable,
      dir: join(mockSite, deployable.name),
    })),
  };
});
jest.mock('@nativegtm/server/remoteServer', () => {
  const actual = jest.requireActual('@nativegtm/server/remoteServer');
  return {
    ...actual,
    /** @param {{ name?: string }} options */
    createRemoteServer: (options) => {
      const server = actual.createRemoteServer(options);
      if (options.name !== 'jobs-mfe') return server;
      const [handle] = server.listeners('request');
      server.removeAllListeners('request');
      server.on('request', (/** @type {import('node:http').IncomingMessage} */ req, /** @type {unknown} */ res) => {
        const delay = String(req.url).includes('/ssr/body/') ? mockBodyDelayMs : 0;
        setTimeout(() => handle.call(server, req, res), delay);
      });
      return server;
    },
  };
});
jest.mock('./browserChecks', () => ({
  browserChecks: jest.fn(async () => ({
    hydration: { name: 'hydration', ok: true },
    navigation: { name: 'in-app navigation', ok: true },
    provided: { react: ['19.2.0'] },
  })),
}));

const { deployables } = require('@nativegtm/server/deployables');
const { browserChecks } = require('./browserChecks');
const { runGate } = require('./runGate');

jest.setTimeout(30_000);

/**
 * A build of `remote` whose page's HTML is its own (the wrapper the composer accepts), unless `withHtml` is false.
 * @param {string} remote
 * @param {string} buildId
 * @param {{ withHtml?: boolean }} [options]
 */
function buildOf(remote, buildId, { withHtml = true } = {}) {
  const body = `${bodyWrapperStart(remote, buildId)}data-variant="index"><h1>${remote}</h1></div>`;
  return fakeBuild({ remote, buildId, ...(withHtml ? { body } : {}) });
}

/** @type {string} */
let storeDir;
/** @type {import('@nativegtm/store/remoteStore').RemoteStore} */
let store;

beforeAll(() => {
  for (const deployable of deployables) {
    const dist = path.join(deployable.dir, 'dist');
    if (deployable.role === 'host') {
      fs.mkdirSync(dist, { recursive: true });
      fs.writeFileSync(
        path.join(dist, 'index.html'),
        '<!doctype html><head><!--# include virtual="/_compose/page-head/$page" --></head>' +
          '<body><!--# include virtual="/_compose/page-body/$page?$args" --></body>',
      );
    } else {
      fs.cpSync(buildOf(deployable.remote, `live-${deployable.remote}`), dist, { recursive: true });
    }
  }
});
afterAll(() => fs.rmSync(mockSite, { recursive: true, force: true }));
beforeEach(() => {
  storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-gate-store-'));
  store = openFolderStore(storeDir).remote('jobs');
});
afterEach(() => {
  mockBodyDelayMs = 0;
  fs.rmSync(storeDir, { recursive: true, force: true });
  removeFakeBuilds();
});

/**
 * The gate a promote runs (gateFor's), with the gate site's fragment timeout unless one is given.
 * @param {{ fragmentTimeoutMs?: number }} [options]
 * @returns {import('@nativegtm/store/operations').Gate}
 */
const gate =
  ({ fragmentTimeoutMs } = {}) =>
  (releaseDir) =>
    runGate({ storeDir, remote: 'jobs', releaseDir, chromiumPath: '/no/browser/here', fragmentTimeoutMs });

/** @param {string} dir */
const publish = async (dir) => (await store.publish(dir, { commit: null, dirty: false })).id;
/** @param {string} id the release as the store lists it: its gate's result, whether it is live */
const listed = async (id) => (await store.releases()).releases.find((release) => release.id === id);
/** What the store's audit says was done: each change that wrote anything. */
const audited = async () => (await store.audit()).map((entry) => entry.action);

describe('the gate, on a machine too busy for a visitor', () => {
  it("passes a release whose page's HTML comes later than a visitor's document waits for it", async () => {
    mockBodyDelayMs = 1000;
    const id = await publish(buildOf('jobs', 'slow-1'));
    const promoted = await store.promote(id, { gate: gate() });
    expect(promoted).toMatchObject({ changed: true, gate: { passed: true } });
    expect(promoted.gate.checks).toContainEqual({ name: 'server HTML', ok: true });
    expect(await listed(id)).toMatchObject({ live: true, gate: { passed: true } });
  });

  it('could not judge a release whose HTML does not come in time twice: nothing recorded, nothing live', async () => {
    mockBodyDelayMs = 3000;
    const id = await publish(buildOf('jobs', 'late-1'));
    const promoting = store.promote(id, { gate: gate({ fragmentTimeoutMs: 300 }) });
    await expect(promoting).rejects.toThrow(Undecided);
    await expect(promoting).rejects.toThrow(
      /^the gate could not judge: server HTML: \/featured-jobs: its page's HTML did not come in time \(fragment;desc="jobs: timed out";dur=[\d.]+\) \(twice\)$/,
    );
    expect(await listed(id)).toMatchObject({ live: false, gate: undefined });
    expect(await audited()).toEqual([`release jobs ${id}`]);
  });

  it('fails a release without its HTML, however long the site waits, and records it failed', async () => {
    const id = await publish(buildOf('jobs', 'bare-1', { withHtml: false }));
    const promoting = store.promote(id, { gate: gate() });
    await expect(promoting).rejects.toThrow(ReleaseError);
    await expect(promoting).rejects.toThrow(
      "✗ server HTML: /featured-jobs answered 200 without this release's HTML (build bare-1; " +
        'fragment;desc="jobs: failed"',
    );
    expect(await listed(id)).toMatchObject({ live: false, gate: { passed: false } });
  });

  it('fails a release without its HTML even when the browser could not judge it', async () => {
    const undecided = 'the browser ran out of time (page.goto: Timeout 30000ms exceeded.) (twice)';
    /** @type {jest.Mock} */ (browserChecks).mockResolvedValueOnce({
      hydration: { name: 'hydration', undecided },
      navigation: { name: 'in-app navigation', undecided },
      provided: undefined,
    });
    const id = await publish(buildOf('jobs', 'bare-2', { withHtml: false }));
    await expect(store.promote(id, { gate: gate() })).rejects.toThrow(ReleaseError);
    expect(await listed(id)).toMatchObject({
      live: false,
      gate: {
        passed: false,
        checks: [
          { name: 'metadata', ok: true },
          { name: 'server HTML', ok: false },
        ],
      },
    });
  });
});
