import { REPORTS_PATH } from '@nativegtm/contract/reports';
import { fieldSignal } from '../fieldData/signals';
import { reportRefusedFile, reportRemoteFailure } from './reportRemoteFailure';

jest.mock('../fieldData/signals', () => ({ fieldSignal: jest.fn() }));

describe('reportRemoteFailure', () => {
  const sendBeacon = jest.fn((_url: string, _data?: BodyInit | null) => true);
  beforeEach(() => {
    sendBeacon.mockClear();
    Object.defineProperty(navigator, 'sendBeacon', { configurable: true, value: sendBeacon });
    document.body.innerHTML = '<div data-remote="jobs" data-build="0123abcd"></div>';
    window.history.pushState({}, '', '/featured-jobs');
  });
  afterEach(() => {
    Reflect.deleteProperty(navigator, 'sendBeacon');
    document.body.innerHTML = '';
  });

  /** The JSON the beacon carried. */
  async function sent(): Promise<unknown> {
    const [url, body] = sendBeacon.mock.calls[0]!;
    expect(url).toBe(REPORTS_PATH);
    const blob = body as Blob;
    expect(blob.type).toBe('application/json');
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(blob);
    });
    return JSON.parse(text);
  }

  it('sends the remote, the build in the document, the route and the message to the site', async () => {
    reportRemoteFailure('jobs', new Error('Remote "jobs": failed to load from http://localhost:3003/mf-manifest.json'));
    expect(await sent()).toEqual({
      type: 'remote-failure',
      remote: 'jobs',
      build: '0123abcd',
      route: '/featured-jobs',
      message: 'Remote "jobs": failed to load from http://localhost:3003/mf-manifest.json',
    });
  });

  it("counts as an error of the page view in field data, the remote's", () => {
    reportRemoteFailure('jobs', new Error('x'));
    expect(fieldSignal).toHaveBeenCalledWith({ kind: 'remote-failure', remote: 'jobs' });
  });

  it('sends an empty build for a remote whose HTML the document does not hold', async () => {
    reportRemoteFailure('employers', 'boom');
    expect(await sent()).toMatchObject({ remote: 'employers', build: '', message: 'boom' });
  });

  it('does nothing, and throws nothing, in a browser without beacons or one that refuses it', () => {
    Reflect.deleteProperty(navigator, 'sendBeacon');
    expect(() => reportRemoteFailure('jobs', new Error('x'))).not.toThrow();
    Object.defineProperty(navigator, 'sendBeacon', {
      configurable: true,
      value: () => {
        throw new TypeError('refused');
      },
    });
    expect(() => reportRemoteFailure('jobs', new Error('x'))).not.toThrow();
  });

  it('reports a file refused for its bytes apart, naming it, and says so in the console', async () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    reportRefusedFile('jobs', 'http://localhost:3003/262.0123456789.js');
    expect(await sent()).toEqual({
      type: 'integrity-failure',
      remote: 'jobs',
      build: '0123abcd',
      route: '/featured-jobs',
      file: 'http://localhost:3003/262.0123456789.js',
    });
    expect(error).toHaveBeenCalledWith(
      '[shell] Remote "jobs": http://localhost:3003/262.0123456789.js was refused, its bytes are not the ones its build listed',
    );
    error.mockRestore();
  });
});
