import { pages } from '@nativegtm/contract/pages';
import { parseRemotesConfig, shippedRemotes } from '@nativegtm/contract/remotesConfig';

describe('the remotes.json the shell ships with (written by its build from the registry of pages)', () => {
  it('is valid and points every remote at its npm start port', () => {
    const expected = Object.fromEntries(
      pages.map((page) => [page.remote, `http://localhost:${page.port}/mf-manifest.json`]),
    );
    expect(parseRemotesConfig(shippedRemotes())).toEqual({
      entries: expected,
      integrity: {},
      devServers: {},
      problems: [],
    });
    expect(Object.keys(expected)).toHaveLength(pages.length);
  });
});
