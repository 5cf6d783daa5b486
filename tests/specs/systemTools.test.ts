// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ensureSystemTools } = require('../support/systemTools');

// What `npm test` does about the programs it needs (the real install is exercised by CI on a machine without them).
const fake = { name: 'Fakebrowser', debianPackage: 'fakebrowser', env: 'FAKEBROWSER_PATH', paths: ['/nonexistent/fb'] };

describe('the system tools the integration tests need', () => {
  it('finds what is installed and installs nothing', () => {
    const present = { ...fake, paths: [process.execPath] };
    expect(ensureSystemTools({ tools: [present], env: {}, asRoot: () => null, log: () => undefined })).toEqual([]);
  });

  it('stops with the exact command to run when it may not install', () => {
    expect(() => ensureSystemTools({ tools: [fake], env: {}, asRoot: () => null, log: () => undefined })).toThrow(
      /Fakebrowser.*sudo apt-get install -y --no-install-recommends fakebrowser.*FAKEBROWSER_PATH/,
    );
  });

  it('names a variable that points nowhere rather than installing over it', () => {
    const env = { FAKEBROWSER_PATH: '/nonexistent/elsewhere' };
    expect(() => ensureSystemTools({ tools: [fake], env, asRoot: () => [], log: () => undefined })).toThrow(
      'FAKEBROWSER_PATH points to /nonexistent/elsewhere, which does not exist.',
    );
  });
});
