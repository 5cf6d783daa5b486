/** @jest-environment node */
// The gate's site on free ports: a port another process takes between the gate's choice and its listening (on a busy
// machine, an outgoing connection's own port) costs a try, not the promote.
const { PortInUseError } = require('@nativegtm/server/httpServer');

jest.mock('@nativegtm/server/startSite', () => ({ startSite: jest.fn() }));
const { startSite } = require('@nativegtm/server/startSite');
const { startGateSite } = require('./gateSite');

const mocked = /** @type {jest.Mock} */ (startSite);
const site = { stop: jest.fn(async () => {}) };
const options = { storeDir: '/nowhere', remote: 'jobs', releaseDir: '/nowhere/release' };

afterEach(() => mocked.mockReset());

it('tries another set of free ports when one was taken before the site listened', async () => {
  mocked.mockRejectedValueOnce(new PortInUseError(41000, 'jobs-mfe')).mockResolvedValueOnce(site);
  const gateSite = await startGateSite(options);
  expect(mocked).toHaveBeenCalledTimes(2);
  const [first, second] = mocked.mock.calls.map((call) => call[1].ports);
  expect(second).not.toEqual(first);
  expect(gateSite.origin).toBe(`http://127.0.0.1:${second.shell}`);
  await gateSite.stop();
  expect(site.stop).toHaveBeenCalled();
});

it('gives up after five tries, with the last refusal', async () => {
  mocked.mockRejectedValue(new PortInUseError(41000, 'jobs-mfe'));
  await expect(startGateSite(options)).rejects.toThrow(/Port 41000 \(jobs-mfe\) is already in use/);
  expect(mocked).toHaveBeenCalledTimes(5);
});

it('does not try again when the site fails for another reason', async () => {
  mocked.mockRejectedValue(new Error('EACCES'));
  await expect(startGateSite(options)).rejects.toThrow('EACCES');
  expect(mocked).toHaveBeenCalledTimes(1);
});
