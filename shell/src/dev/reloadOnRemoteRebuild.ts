/**
 * Development only: reloads the composed page when a remote's dev server finishes a rebuild. webpack-dev-server's
 * own client lives in each remote's page entry, which the shell never loads, so without this the shell would keep
 * showing a remote's old code until a manual reload.
 */
export function reloadOnRemoteRebuild(manifestUrls: readonly string[], reload: () => void = () => location.reload()) {
  const origins = new Set(manifestUrls.map((url) => new URL(url).origin));
  for (const origin of origins) {
    let rebuilding = false;
    const socket = new WebSocket(`${origin.replace(/^http/, 'ws')}/ws`);
    socket.addEventListener('message', (event: MessageEvent<string>) => {
      let type: unknown;
      try {
        type = (JSON.parse(event.data) as { type?: unknown }).type;
      } catch {
        return;
      }
      if (type === 'invalid') rebuilding = true;
      else if (rebuilding && (type === 'ok' || type === 'warnings' || type === 'still-ok')) reload();
    });
  }
}
