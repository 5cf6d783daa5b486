// Generated remotes.json files: operators edit it by hand, so anything can be in it. Whatever it holds, the servers
// and the shell read it without throwing (or throw the one error that says the file as a whole is unusable), and
// what counts is only known remote names with http(s) addresses.
const fc = require('fast-check');
const { parseRemotesConfig, readRemotesConfig, RemotesConfigError } = require('./remotesConfig');
const { remoteNames } = require('./remotes');

const name = fc.oneof(fc.constantFrom(...remoteNames, '__proto__', 'constructor', 'Jobs', ''), fc.string());
const address = fc.oneof(
  fc.webUrl(),
  fc.constantFrom(
    'javascript:alert(1)',
    'ftp://x/mf-manifest.json',
    'data:,{}',
    '//host/m.json',
    'http://',
    'https://[::1]/m.json',
  ),
  fc.string(),
  fc.jsonValue(),
);
const config = fc.dictionary(name, address, { maxKeys: 8 });
const runs = { numRuns: 2000 };

/** @param {Record<string, string>} entries */
function onlyValidEntries(entries) {
  return Object.entries(entries).every(
    ([key, url]) =>
      /** @type {readonly string[]} */ (remoteNames).includes(key) && /^https?:$/.test(new URL(url).protocol),
  );
}

describe('remotes.json, over generated files', () => {
  it('keeps only known remote names with http(s) addresses, and never throws for an object', () => {
    fc.assert(
      fc.property(config, (json) =>
        onlyValidEntries(/** @type {Record<string, string>} */ (parseRemotesConfig(json).entries)),
      ),
      runs,
    );
  });

  it('throws only RemotesConfigError for anything that is not an object', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (json) => {
        try {
          parseRemotesConfig(json);
          return typeof json === 'object' && json !== null && !Array.isArray(json);
        } catch (error) {
          return error instanceof RemotesConfigError;
        }
      }),
      runs,
    );
  });

  it("reads any file's text as the servers do: valid entries or none, never an exception", () => {
    const text = fc.oneof(
      config.map((json) => JSON.stringify(json)),
      fc.string({ unit: 'binary' }),
      fc.json(),
    );
    fc.assert(
      fc.property(text, (contents) =>
        onlyValidEntries(/** @type {Record<string, string>} */ (readRemotesConfig(contents))),
      ),
      runs,
    );
  });
});
