import net from 'node:net';
import { startXvfb } from '../support/engines/xvfb';
import { locateTool } from '../support/systemTools';

/**
 * What an X client does first: connect to the display's socket and send the connection set-up (little-endian,
 * protocol 11.0, no authorisation). Resolves with 'accepted', or with how the server turned it away.
 */
function greet(display: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(`/tmp/.X11-unix/X${display.slice(1)}`);
    const settle = (outcome: string) => {
      socket.destroy();
      resolve(outcome);
    };
    socket.once('connect', () => {
      const setup = Buffer.alloc(12);
      setup.write('l', 0);
      setup.writeUInt16LE(11, 2);
      socket.write(setup);
    });
    socket.once('data', (reply) => settle(reply[0] === 1 ? 'accepted' : `refused (${reply[0]})`));
    socket.once('error', (error: NodeJS.ErrnoException) => settle(error.code ?? error.message));
    socket.once('close', () => settle('closed'));
  });
}

describe('the virtual display WebKit draws into', () => {
  it('accepts a browser that connects just as the previous one leaves', async () => {
    // One test's MiniBrowser quits while the next one's connects. Without -noreset Xvfb resets whenever its last
    // client has gone, and turned away about half of these connections (measured: 277 of 600).
    const xvfb = await startXvfb(locateTool('XVFB_PATH'));
    try {
      const outcomes = await Promise.all(
        [1, 2, 3, 4].map(async () => {
          const mine: string[] = [];
          for (let attempt = 0; attempt < 50; attempt += 1) mine.push(await greet(xvfb.display));
          return mine;
        }),
      );
      expect(outcomes.flat().filter((outcome) => outcome !== 'accepted')).toEqual([]);
    } finally {
      await xvfb.stop();
    }
  });
});
