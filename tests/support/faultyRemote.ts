import { readFile, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join, normalize } from 'node:path';
import { createRemoteHandler } from '@nativegtm/server/remoteServer';
import { close, listen } from '@nativegtm/server/httpServer';

/**
 * How the remote answers its page's server-rendered files (ssr/…); everything else is served, except when it is
 * 'offline' (every request, its code's too, is dropped) or 'slow' (every request but for its integrity list is
 * answered 3 s late).
 */
export type FaultMode = 'up' | 'down' | 'offline' | 'error' | 'hang' | 'slow' | 'redirect' | 'old-html' | 'new-build';

/**
 * Which of its server-rendered files fail: all of them, or only the page's head and HTML while ssr/manifest.json is
 * served (the built-in server reads the manifest first: this is the case where it gets as far as the page).
 */
export type FaultScope = 'all' | 'page';

/**
 * A real copy of a remote (its dist/, served as `npm start` serves it) whose server-rendered files can be made to
 * fail the way a remote does in production: down, an error page with a stack trace, a hang, a redirect to another
 * origin, or HTML from an older build than its JavaScript; or be redeployed in place ('new-build': every
 * server-rendered file, its manifest too, says it is of the build "a-newer-build").
 */
export async function startFaultyRemote(root: string, port: number, redirectTo: string) {
  let mode: FaultMode = 'up';
  let scope: FaultScope = 'all';
  const serve = createRemoteHandler({ root });
  const build = (JSON.parse(readFileSync(join(root, 'ssr/manifest.json'), 'utf8')) as { buildId: string }).buildId;
  const hanging = new Set<NodeJS.Timeout>();
  /** The targets and headers of the requests for server-rendered files it got, newest last. */
  const seen: { url: string; headers: Record<string, string | string[] | undefined> }[] = [];
  /** The target of every request it got, newest last. */
  const requested: string[] = [];
  /** Serves the request `ms` late (the timer is cleared when the remote stops). */
  const serveLate = (req: IncomingMessage, res: ServerResponse, ms: number) => {
    const timer = setTimeout(() => {
      hanging.delete(timer);
      serve(req, res);
    }, ms);
    hanging.add(timer);
  };
  const server: Server = createServer((req, res) => {
    if (req.url) requested.push(req.url);
    if (req.url?.startsWith('/ssr/')) seen.push({ url: req.url, headers: req.headers });
    if (mode === 'offline') {
      req.socket.destroy();
      return undefined;
    }
    if (mode === 'slow' && req.url !== '/integrity.json') {
      // Every file but its integrity list (the shell's server reads it to vouch for the remote), the browser's code
      // too, 3 s late: a page's loads of it are still under way when the visitor moves on.
      return serveLate(req, res, 3000);
    }
    if (!req.url?.startsWith('/ssr/') || mode === 'up') return serve(req, res);
    if (scope === 'page' && req.url.startsWith('/ssr/manifest.json')) return serve(req, res);
    if (mode === 'down') {
      // Gone mid-connection, as a crashed or stopped remote is.
      req.socket.destroy();
      return undefined;
    }
    if (mode === 'error') {
      res.statusCode = 500;
      res.setHeader('Content-Type', 'text/html');
      return res.end(
        '<h1>Internal Server Error</h1><pre>Error: database exploded\n    at secret (/srv/app.js:1:1)</pre>',
      );
    }
    if (mode === 'hang') {
      // Answers after 8 s, long after any document should have been sent.
      return serveLate(req, res, 8000);
    }
    if (mode === 'redirect') {
      res.statusCode = 302;
      res.setHeader('Location', `${redirectTo}${req.url}`);
      return res.end();
    }
    // old-html: the page's HTML says it was rendered by another build than the JavaScript now deployed.
    const file = join(root, normalize(decodeURIComponent(new URL(req.url, 'http://remote.invalid').pathname)));
    if (!file.startsWith(join(root, 'ssr'))) return serve(req, res);
    return readFile(file, 'utf8', (error, body) => {
      if (error) {
        res.statusCode = 404;
        return res.end();
      }
      res.setHeader('Content-Type', file.endsWith('.json') ? 'application/json' : 'text/html; charset=utf-8');
      return res.end(
        mode === 'new-build'
          ? body.replaceAll(build, 'a-newer-build')
          : body.replace(/data-build="[^"]*"/, 'data-build="an-older-build"'),
      );
    });
  });
  await listen(server, port, 'faulty remote');
  return {
    url: `http://localhost:${port}`,
    seen,
    requested: () => [...requested],
    setMode(next: FaultMode, nextScope: FaultScope = 'all') {
      mode = next;
      scope = nextScope;
    },
    async stop() {
      hanging.forEach(clearTimeout);
      server.closeAllConnections();
      await close(server);
    },
  };
}
