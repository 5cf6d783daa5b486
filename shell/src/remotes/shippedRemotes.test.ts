import shipped from '../../public/remotes.json';
import { parseRemotesConfig } from './remotesConfig';

describe('the remotes.json shipped with the shell', () => {
  it('is valid and points every remote at its npm start port', () => {
    expect(parseRemotesConfig(shipped)).toEqual({
      entries: {
        candidates: 'http://localhost:3001/mf-manifest.json',
        employers: 'http://localhost:3002/mf-manifest.json',
        jobs: 'http://localhost:3003/mf-manifest.json',
        comingSoon: 'http://localhost:3004/mf-manifest.json',
      },
      problems: [],
    });
  });
});
