// Generated raw queries, thousands a run: whatever a URL's query holds, the server's reading of it never throws and
// names a variant the remote's build rendered, or none ("render in the browser"), never a file of its own making.
const fc = require('fast-check');
const { allVariants, serverVariantKey, variantKey } = require('./pageVariant');

const query = { role: ['sdr', 'ae', 'revops'], type: ['full-time', 'contract'] };
const keys = new Set(allVariants(query).map((variant) => variant.key));

const piece = fc.constantFrom(
  'role',
  'type',
  'sdr',
  'ae',
  'revops',
  'full-time',
  'contract',
  '=',
  '&',
  '&&',
  '%',
  '%61',
  '%2D',
  '%ZZ',
  '+',
  ';',
  '#',
  '?',
  'r%6Fle',
  '<script>',
  '\u0000',
  'é',
  '[]',
  'role[]',
);
const rawQuery = fc.oneof(
  fc.array(piece, { maxLength: 14 }).map((pieces) => pieces.join('')),
  fc.string({ unit: 'binary', maxLength: 60 }),
);

describe('page variants, over generated queries', () => {
  it('never throws, and names a rendered variant or none', () => {
    fc.assert(
      fc.property(rawQuery, (raw) => {
        const key = serverVariantKey(query, `?${raw}`);
        return key === null || keys.has(key);
      }),
      { numRuns: 5000 },
    );
  });

  it('agrees with the decoded rule whenever it names a variant', () => {
    fc.assert(
      fc.property(rawQuery, (raw) => {
        const key = serverVariantKey(query, raw);
        let decoded;
        try {
          decoded = variantKey(query, raw);
        } catch {
          return key === null;
        }
        return key === null || key === decoded;
      }),
      { numRuns: 5000 },
    );
  });
});
