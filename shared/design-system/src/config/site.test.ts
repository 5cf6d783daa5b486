import { documentTitle, paths, site } from './site';

describe('site configuration', () => {
  it('holds the brand and contact addresses the product decisions fixed', () => {
    expect(site.name).toBe('NativeGTM');
    expect(site.recruiterEmail).toBe('recruiting@nativegtm.example');
    expect(site.earlyAccessUrl).toBe('https://forms.nativegtm.example/early-access');
  });

  it('builds document titles with the brand last', () => {
    expect(documentTitle('Featured Jobs')).toBe('Featured Jobs · NativeGTM');
    expect(documentTitle()).toBe('NativeGTM');
  });

  it('lists the four page routes', () => {
    expect(Object.values(paths)).toEqual(['/', '/employers', '/featured-jobs', '/coming-soon']);
  });
});
