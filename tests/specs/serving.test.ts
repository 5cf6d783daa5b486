import { chmodSync, cpSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { deployables } from '@nativegtm/server/deployables';
import { launchChromium } from '../support/chromium';
import { eventually } from '../support/eventually';
import { startNginx } from '../support/nginxServer';
import { rawGet } from '../support/rawGet';
import { pages, ports as builtInPorts } from '../support/site';
import { NOT_FOUND_CACHE_CONTROL, PAGE_CACHE_CONTROL } from '@nativegtm/server/documentCaching';

/** One way of serving the five dist/ folders: the built-in server (npm start) or nginx with the generated config. */
interface Target {
  host: string;
  ports: Record<string, number>;
  remoteOrigins: string[];
  stop?: () => Promise<void>;
}

const remotes = deployables.filter((d) => d.role === 'remote');
const remotePackages = remotes.map((d) => d.name);

function origins(host: string, ports: Record<string, number>): string[] {
  return remotePackages.map((pkg) => `http://${host}:${ports[pkg]}`).sort();
}

async function builtIn(): Promise<Target> {
  return { host: 'localhost', ports: builtInPorts, remoteOrigins: origins('localhost', builtInPorts) };
}

async function nginx(roots?: Record<string, string>, portOffset = 20): Promise<Target> {
  const ports = Object.fromEntries(Object.entries(builtInPorts).map(([name, port]) => [name, port + portOffset]));
  const host = '127.0.0.1';
  const folder = mkdtempSync(join(tmpdir(), 'nativegtm-nginx-remotes-'));
  const remotesFile = join(folder, 'remotes.json');
  writeFileSync(
    remotesFile,
    JSON.stringify(
      Object.fromEntries(remotes.map((d) => [d.remote, `http://${host}:${ports[d.name]}/mf-manifest.json`])),
    ),
  );
  const server = await startNginx({ ports, remotesFile, roots });
  const stop = async () => {
    await server.stop();
    rmSync(folder, { recursive: true, force: true });
  };
  return { host, ports, remoteOrigins: origins(host, ports), stop };
}

describe('nginx with a checkout in a directory only its owner may enter (a clone in ~ or in mktemp -d)', () => {
  let target: Target | undefined;
  const folder = mkdtempSync(join(tmpdir(), 'nativegtm-private-'));
  afterAll(async () => {
    await target?.stop?.();
    rmSync(folder, { recursive: true, force: true });
  });

  it('serves the composed pages and their files all the same', async () => {
    chmodSync(folder, 0o700);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    const roots = Object.fromEntries(
      deployables.map((d) => {
        const copy = join(folder, d.name, 'dist');
        cpSync(join(d.dir, 'dist'), copy, { recursive: true });
        return [d.name, copy];
      }),
    );
    target = await nginx(roots, 30);
    // nginx answers once its ports accept; its first subrequests to a remote may still miss the fragment timeout
    // on a busy machine and give the designed fallback (the shell alone), so wait for the composed document.
    const heading = /<h1[^>]*>Hire Vetted <span[^>]*>AI-Native<\/span> GTM Talent<\/h1>/;
    const document = await eventually(
      () => rawGet(target!.ports.shell!, '/employers'),
      (response) => heading.test(response.body),
      { timeoutMs: 10_000, what: 'the document of /employers' },
    );
    expect(document.status).toBe(200);
    const script = /(\/main\.[0-9a-f]{10}\.js)/.exec(document.body)?.[1];
    expect((await rawGet(target.ports.shell!, script!)).status).toBe(200);
    expect((await rawGet(target.ports['employers-mfe']!, '/mf-manifest.json')).status).toBe(200);
  });
});

describe.each([
  ['the built-in server (npm start)', builtIn],
  ['nginx with the generated configuration', nginx],
])('%s', (_name, start) => {
  let target: Target;
  const port = (name: string) => target.ports[name]!;

  beforeAll(async () => {
    target = await start();
  });
  afterAll(async () => {
    await target?.stop?.();
  });

  it('answers page routes with their document, an unknown route with the 404 document, a missing file with a plain 404', async () => {
    for (const [path, status] of [
      ['/', 200],
      ['/featured-jobs', 200],
      ['/coming-soon', 200],
      ['/no/such/page', 404],
    ] as const) {
      const response = await rawGet(port('shell'), path);
      expect([path, response.status, response.headers['content-type']]).toEqual([
        path,
        status,
        expect.stringMatching(/^text\/html/),
      ]);
      expect(response.body).toMatch(/<div id="?root"?>/);
    }
    for (const path of ['/missing.1234abcd.js', '/missing.css', '/remotes.json.bak']) {
      const response = await rawGet(port('shell'), path);
      expect([path, response.status]).toEqual([path, 404]);
      expect(response.headers['content-type'] ?? '').not.toMatch(/html/);
    }
  });

  it('answers /healthz with "ok" on the shell and every remote, never cached', async () => {
    for (const name of Object.keys(target.ports)) {
      const response = await rawGet(port(name), '/healthz');
      expect([name, response.status, response.body, response.headers['cache-control']]).toEqual([
        name,
        200,
        'ok\n',
        'no-store',
      ]);
    }
  });

  it('takes browser reports on the shell within limits, answering with an empty status', async () => {
    const post = async (body: string, type = 'application/json') => {
      const response = await fetch(`http://127.0.0.1:${port('shell')}/_reports`, {
        method: 'POST',
        body,
        headers: { 'Content-Type': type },
      });
      return [response.status, await response.text()];
    };
    const violation = JSON.stringify({
      'csp-report': {
        'document-uri': 'http://localhost/',
        'violated-directive': 'script-src',
        'blocked-uri': 'inline',
      },
    });
    expect(await post(violation, 'application/csp-report')).toEqual([204, '']);
    expect(await post('x'.repeat(17 * 1024))).toEqual([413, expect.any(String)]);
    expect((await rawGet(port('shell'), '/_reports')).status).toBeGreaterThanOrEqual(400);
  });

  it('revalidates what changes on deploy and caches content-hashed files for a year', async () => {
    const checks: [string, number, string][] = [
      ['shell', port('shell'), '/remotes.json'],
      ['jobs', port('jobs-mfe'), '/mf-manifest.json'],
      ['jobs', port('jobs-mfe'), '/remoteEntry.js'],
    ];
    for (const [label, p, path] of checks) {
      const response = await rawGet(p, path);
      expect([label, path, response.status, response.headers['cache-control']]).toEqual([label, path, 200, 'no-cache']);
    }
    const html = (await rawGet(port('shell'), '/')).body;
    // The boot script lists the application's scripts (data-scripts) and starts them after the first paint.
    const script = /(\/main\.[0-9a-f]{10}\.js)/.exec(html)?.[1];
    expect(script).toBeDefined();
    const hashed = await rawGet(port('shell'), script!);
    expect(hashed.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('lets a CDN keep documents briefly and serve them stale while it refetches; browsers revalidate', async () => {
    for (const path of ['/', '/featured-jobs', '/featured-jobs?function=product-marketing']) {
      const response = await rawGet(port('shell'), path);
      expect([path, response.status, response.headers['cache-control']]).toEqual([path, 200, PAGE_CACHE_CONTROL]);
    }
    const missing = await rawGet(port('shell'), '/no/such/page');
    expect([missing.status, missing.headers['cache-control']]).toEqual([404, NOT_FOUND_CACHE_CONTROL]);
    // Nothing personal is ever in a document a shared cache may keep.
    expect(missing.headers['set-cookie']).toBeUndefined();
  });

  it('answers "not modified" to a client that holds the same document, each encoding validated apart', async () => {
    const nginxServes = target.host === '127.0.0.1';
    // nginx sends the file its collector composed (documentFiles.js) once there is one; until then it composes the
    // document per request (SSI), which has no validator.
    const first = await eventually(
      () => rawGet(port('shell'), '/employers'),
      (response) => response.headers.etag !== undefined,
      { timeoutMs: 10_000, what: "/employers' ETag" },
    );
    const etag = first.headers.etag as string;
    // Strong (nginx's: the file's time and size), and another for the same document's brotli bytes.
    expect(etag).toMatch(nginxServes ? /^"[0-9a-f]+-[0-9a-f]+"$/ : /^"[0-9a-f]+-[A-Za-z0-9+/]{27}"$/);
    const brotli = await rawGet(port('shell'), '/employers', { 'Accept-Encoding': 'br' });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.etag).toMatch(/^"[^"]+"$/);
    expect(brotli.headers.etag).not.toBe(etag);
    expect((await rawGet(port('shell'), '/employers')).headers.etag).toBe(etag);
    expect((await rawGet(port('shell'), '/')).headers.etag).not.toBe(etag);
    const revalidated = await rawGet(port('shell'), '/employers', { 'If-None-Match': `"other", ${etag}` });
    expect([revalidated.status, revalidated.body, revalidated.headers.etag]).toEqual([304, '', etag]);
    expect(revalidated.headers['cache-control']).toBe(PAGE_CACHE_CONTROL);
    expect((await rawGet(port('shell'), '/employers', { 'If-None-Match': '"other"' })).status).toBe(200);
  });

  it('serves JavaScript, CSS, HTML and JSON compressed', async () => {
    const manifest = JSON.parse((await rawGet(port('jobs-mfe'), '/mf-manifest.json')).body);
    expect(manifest.name).toBe('jobs');
    for (const [p, path] of [
      [port('jobs-mfe'), '/remoteEntry.js'],
      [port('jobs-mfe'), '/mf-manifest.json'],
      [port('shell'), '/'],
    ] as const) {
      const response = await rawGet(p, path, { 'Accept-Encoding': 'gzip' });
      expect([path, response.headers['content-encoding']]).toEqual([path, 'gzip']);
      expect(response.headers.vary).toMatch(/Accept-Encoding/i);
    }
  });

  it('lets the shell origin load the remotes (CORS)', async () => {
    for (const pkg of remotePackages) {
      const response = await rawGet(port(pkg), '/mf-manifest.json', {
        Origin: `http://${target.host}:${port('shell')}`,
      });
      expect([pkg, response.headers['access-control-allow-origin']]).toEqual([pkg, '*']);
    }
  });

  it('sends the security headers, with a CSP generated from remotes.json, on every HTML response', async () => {
    for (const path of ['/', '/employers', '/no/such/page', '/index.html']) {
      const response = await rawGet(port('shell'), path);
      const csp = String(response.headers['content-security-policy']);
      const directives = Object.fromEntries(
        csp.split(';').map((directive) => {
          const [name, ...values] = directive.trim().split(/\s+/);
          return [name, values];
        }),
      );
      expect(directives['script-src']?.sort()).toEqual(["'self'", ...target.remoteOrigins].sort());
      expect(directives['connect-src']?.sort()).toEqual(["'self'", ...target.remoteOrigins].sort());
      expect(directives['object-src']).toEqual(["'none'"]);
      expect(directives['base-uri']).toEqual(["'self'"]);
      expect(directives['frame-ancestors']).toEqual(["'none'"]);
      expect([directives['report-uri'], directives['report-to']]).toEqual([['/_reports'], ['csp']]);
      expect(response.headers['reporting-endpoints']).toBe('csp="/_reports"');
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(response.headers['permissions-policy']).toMatch(/camera=\(\)/);
    }
    const remotePage = await rawGet(port('jobs-mfe'), '/');
    expect(remotePage.headers['content-security-policy']).toMatch(/script-src 'self';/);
  });

  it("never reads outside a package's dist/ (path traversal)", async () => {
    for (const path of [
      '/../package.json',
      '/%2e%2e/package.json',
      '/..%2fpackage.json',
      '/%2e%2e%2fpackage.json',
      '/.%2e/webpack.config.js',
    ]) {
      for (const pkg of ['shell', 'jobs-mfe']) {
        const response = await rawGet(port(pkg), path);
        expect([pkg, path, response.body]).not.toEqual([pkg, path, expect.stringContaining('"scripts"')]);
        expect([pkg, path, response.body]).not.toEqual([pkg, path, expect.stringContaining('createRemoteConfig')]);
      }
    }
  });

  describe('in Chromium', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
    });

    it('renders every route with zero CSP violations and no request to any other host', async () => {
      const page = await browser.newPage();
      const allowed = new Set([`http://${target.host}:${port('shell')}`, ...target.remoteOrigins]);
      const foreign: string[] = [];
      const violations: string[] = [];
      page.on('request', (request) => {
        const { origin } = new URL(request.url());
        if (!allowed.has(origin)) foreign.push(request.url());
      });
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
      });
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          console.error(`Content Security Policy violation: ${event.violatedDirective} ${event.blockedURI}`);
        });
      });
      for (const route of [...pages, { path: '/no-such-page', heading: 'Oops! Page not found' }]) {
        await page.goto(`http://${target.host}:${port('shell')}${route.path}`);
        await page.getByRole('heading', { level: 1, name: route.heading }).waitFor();
      }
      await page.close();
      expect(violations).toEqual([]);
      expect(foreign).toEqual([]);
    });
  });
});
