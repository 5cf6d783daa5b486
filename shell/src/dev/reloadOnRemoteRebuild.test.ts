import { reloadOnRemoteRebuild } from './reloadOnRemoteRebuild';

class FakeSocket {
  static instances: FakeSocket[] = [];
  listeners: ((event: { data: string }) => void)[] = [];
  constructor(readonly url: string) {
    FakeSocket.instances.push(this);
  }
  addEventListener(_type: 'message', listener: (event: { data: string }) => void) {
    this.listeners.push(listener);
  }
  send(type: string) {
    this.listeners.forEach((listener) => listener({ data: JSON.stringify({ type }) }));
  }
}

describe('reloadOnRemoteRebuild', () => {
  beforeEach(() => {
    FakeSocket.instances = [];
    Object.assign(globalThis, { WebSocket: FakeSocket });
  });

  it("listens to each remote's dev server once and reloads after a rebuild, not on connect", () => {
    const reload = jest.fn();
    reloadOnRemoteRebuild(
      [
        'http://localhost:3001/mf-manifest.json',
        'http://localhost:3001/other.json',
        'http://localhost:3003/mf-manifest.json',
      ],
      reload,
    );
    expect(FakeSocket.instances.map((socket) => socket.url)).toEqual([
      'ws://localhost:3001/ws',
      'ws://localhost:3003/ws',
    ]);

    const [candidates] = FakeSocket.instances;
    candidates!.send('hash');
    candidates!.send('ok');
    expect(reload).not.toHaveBeenCalled();

    candidates!.send('invalid');
    candidates!.send('hash');
    candidates!.send('ok');
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
