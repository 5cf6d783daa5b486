// Which pre-rendered variant of a page a URL asks for. A page renders differently for a few query parameters (the
// Featured Jobs filters); its remote's build renders every combination of the values it understands, and this one
// function says which file a URL gets. The same code runs in the build (to name the files), in the document server
// (to pick one per request) and in the browser (to check that the HTML it is about to hydrate is the variant its own
// URL asks for), so the three can never disagree.
//
// The rule is the pages' own rule for their query: a parameter counts when it is given exactly once with one of the
// listed values; anything else (missing, unknown, repeated, garbled) is the default. The raw value never reaches a
// file name or the HTML.

/** A value may only be a slug: it goes into file names and nginx regular expressions. */
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Stands for "the default" in a variant key; never a slug, so it cannot collide with a value. */
const DEFAULT_VALUE = '_';

/** Between the values of a key; slugs never contain two hyphens in a row. */
const SEPARATOR = '--';

/**
 * Throws unless every parameter name and value is a slug.
 * @param {Record<string, readonly string[]> | undefined} query
 */
function assertValidQuery(query) {
  for (const [name, values] of Object.entries(query ?? {})) {
    if (!SLUG.test(name)) throw new Error(`Query parameter "${name}" is not a slug`);
    if (!Array.isArray(values) || values.length === 0) throw new Error(`Query parameter "${name}" lists no values`);
    for (const value of values) {
      if (typeof value !== 'string' || !SLUG.test(value)) {
        throw new Error(`Value ${JSON.stringify(value)} of query parameter "${name}" is not a slug`);
      }
    }
  }
}

/**
 * The variant key of a URL's query for a page that reads `query`: one part per parameter, in declaration order.
 * @param {Record<string, readonly string[]> | undefined} query
 * @param {string | URLSearchParams} search
 */
function variantKey(query, search) {
  const names = Object.keys(query ?? {});
  if (names.length === 0) return 'index';
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  return names
    .map((name) => {
      const given = params.getAll(name);
      const value = given.length === 1 ? given[0] : undefined;
      return value !== undefined && query[name].includes(value) ? value : DEFAULT_VALUE;
    })
    .join(SEPARATOR);
}

/**
 * Every variant a page has: its key and a query string that asks for it (defaults left out).
 * @param {Record<string, readonly string[]> | undefined} query
 * @returns {{ key: string, search: string }[]}
 */
function allVariants(query) {
  const names = Object.keys(query ?? {});
  let combinations = [[]];
  for (const name of names) {
    const choices = [undefined, ...query[name]];
    combinations = combinations.flatMap((chosen) => choices.map((value) => [...chosen, value]));
  }
  return combinations.map((values) => {
    const params = new URLSearchParams();
    values.forEach((value, index) => {
      if (value !== undefined) params.set(names[index], value);
    });
    const search = params.toString() ? `?${params}` : '';
    return { key: variantKey(query, search), search };
  });
}

module.exports = { assertValidQuery, variantKey, allVariants, DEFAULT_VALUE, SEPARATOR, SLUG };
