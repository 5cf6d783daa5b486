import { SAMPLE_RATE_META } from '@nativegtm/contract/fieldData';
import { sampled, sampleRate } from './sampling';

describe('the sample rate', () => {
  afterEach(() => {
    document.head.innerHTML = '';
  });

  const rateOf = (content: string) => {
    document.head.innerHTML = `<meta name="${SAMPLE_RATE_META}" content="${content}">`;
    return sampleRate();
  };

  it('is the share the document states, from 0 to 1', () => {
    expect([rateOf('0.25'), rateOf('0'), rateOf('1'), rateOf(' .5 '), rateOf('1.0'), rateOf('0.000')]).toEqual([
      0.25, 0, 1, 0.5, 1, 0,
    ]);
  });

  it('measures every document without the meta element', () => {
    expect(sampleRate()).toBe(1);
  });

  it.each(['', 'abc', '-0.5', '1e-3', '25%', '0,25', 'NaN', 'Infinity', '0x1'])(
    'measures every document when the value is not a share (%p), and does not throw',
    (content) => {
      expect(rateOf(content)).toBe(1);
    },
  );

  it('caps a share above 1 at all documents', () => {
    expect(rateOf('2.5')).toBe(1);
  });
});

describe('the sampling decision', () => {
  it('measures a document when its draw is below the rate: never at 0, always at 1', () => {
    expect([sampled(0, 0), sampled(1, 0.999999), sampled(0.25, 0.2), sampled(0.25, 0.25), sampled(0.25, 0.9)]).toEqual([
      false,
      true,
      true,
      false,
      false,
    ]);
  });
});
