// Generated ssr/manifest.json files: a remote's manifest is fetched over the network, so the document server must
// take anything in it without crashing, and accept only what is safe to put in file names and nginx's patterns.
const fc = require('fast-check');
const { parsePageManifest } = require('./fragments');
const { SLUG } = require('./pageVariant');

const slugish = fc.oneof(
  fc.stringMatching(/^[a-z0-9]+(-[a-z0-9]+)*$/),
  fc.string(),
  fc.constantFrom('a|b', '.*', '(?<x>)', '../x'),
);
const manifest = fc.record(
  {
    name: fc.oneof(fc.constant('jobs'), fc.string(), fc.jsonValue()),
    buildId: fc.oneof(fc.stringMatching(/^[0-9a-f]{1,12}$/), fc.jsonValue()),
    query: fc.oneof(
      fc.dictionary(slugish, fc.oneof(fc.array(slugish, { maxLength: 4 }), fc.jsonValue())),
      fc.jsonValue(),
    ),
  },
  { requiredKeys: [] },
);
const text = fc.oneof(
  manifest.map((value) => JSON.stringify(value)),
  fc.json(),
  fc.string({ unit: 'binary' }),
);

describe("a remote's ssr/manifest.json, over generated files", () => {
  it('is either accepted with a build id and slug-only query, or refused with an Error that says why', () => {
    fc.assert(
      fc.property(text, (contents) => {
        let parsed;
        try {
          parsed = parsePageManifest(contents, 'jobs');
        } catch (error) {
          return error instanceof Error && error.message.length > 0;
        }
        return (
          parsed.name === 'jobs' &&
          typeof parsed.buildId === 'string' &&
          Object.entries(parsed.query ?? {}).every(
            ([key, values]) => SLUG.test(key) && values.length > 0 && values.every((value) => SLUG.test(value)),
          )
        );
      }),
      { numRuns: 3000 },
    );
  });
});
