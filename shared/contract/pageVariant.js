// Which pre-rendered variant of a page a URL asks for. A page renders differently for a few query parameters (the
// Featured Jobs filters); its remote's build renders every combination of the values it understands, and this one
// function says which file a URL gets. The same code runs in the build (to name the files), in the document server
// (to pick one per request) and in the browser (to check that the HTML it is about to hydrate is the variant its own
// URL asks for), so the three can never disagree.
//
// The rule is the pages' own rule for their query: a parameter counts when it is given exactly once with one of the
// listed values; anything else (missing, unknown, repeated, garbled) is the default. The raw value never reaches a
// file name or the HTML.

/** @typedef {Readonly<Record<string, readonly string[]>>} PageQuery */

/** A value may only be a slug: it goes into file names and nginx regular expressions. */
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Slug characters, each as it is or percent-encoded (%2D "-", %30-%39 digits, %61-%7A letters, any hex case). */
const ENCODED_SLUG = '(?:[a-z0-9-]|%(?:2[dD]|3[0-9]|6[1-9a-fA-F]|7[0-9aA]))+';

/** Stands for "the default" in a variant key; never a slug, so it cannot collide with a value. */
const DEFAULT_VALUE = '_';

/** Between the values of a key; slugs never contain two hyphens in a row. */
const SEPARATOR = '--';

/**
 * Throws unless every parameter name and value is a slug.
 * @param {PageQuery | undefined} query
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
 * @param {PageQuery | undefined} query
 * @param {string | URLSearchParams} search
 */
function variantKey(query, search) {
  const parameters = Object.entries(query ?? {});
  if (parameters.length === 0) return 'index';
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  return parameters
    .map(([name, values]) => {
      const given = params.getAll(name);
      const value = given.length === 1 ? given[0] : undefined;
      return value !== undefined && values.includes(value) ? value : DEFAULT_VALUE;
    })
    .join(SEPARATOR);
}

/**
 * The same rule on the raw query string, as a server sees it (nginx's `$args`, the request line), through regular
 * expressions that both the built-in server and nginx's `map`s run: written once here, so the two cannot disagree.
 * Unless a parameter's name, or a listed parameter's value, is made of slug characters with some percent-encoded,
 * this is the key `variantKey` gives for the decoded query (tested over generated queries). With such a name or
 * value, only decoding could tell (is `f%75nction` a `function`?), which nginx cannot do: the server answers `null`,
 * "no pre-rendered variant", and the page renders in the browser from its own URL, never showing another list.
 * @param {PageQuery | undefined} query
 */
function variantPatterns(query) {
  const parameters = Object.entries(query ?? {});
  const names = parameters.map(([name]) => name);
  return {
    /**
     * Matches when the key cannot be told without decoding: a name, or a listed parameter's value, that is made of
     * slug characters and at least one of them percent-encoded, and so may decode to a listed name or value. Other
     * encoded text (`%3Cscript%3E`, `utm%5Fsource`) can decode to no slug: the default, as decoded.
     */
    undecidable: [
      `(^|&)(?=[^=&]*%)${ENCODED_SLUG}(=|&|$)`,
      ...names.map((name) => `(^|&)${name}=(?=[^&]*%)${ENCODED_SLUG}(&|$)`),
    ],
    params: parameters.map(([name, values]) => ({
      name,
      /** Given more than once (with or without a value): the default. */
      repeated: `(^|&)${name}(=[^&]*)?&(.*&)?${name}(=|&|$)`,
      /** Given with a listed value, captured by the named group `groupName`. */
      /** @param {string} groupName */
      value: (groupName) => `(^|&)${name}=(?<${groupName}>${values.join('|')})(&|$)`,
    })),
  };
}

/**
 * The variant a server pre-renders for a raw query string (with or without its "?"), or null when it cannot tell
 * without decoding (see variantPatterns).
 * @param {PageQuery | undefined} query
 * @param {string} rawSearch
 * @returns {string | null}
 */
function serverVariantKey(query, rawSearch) {
  if (query === undefined || Object.keys(query).length === 0) return 'index';
  const args = rawSearch.startsWith('?') ? rawSearch.slice(1) : rawSearch;
  const { undecidable, params } = compiledPatterns(query);
  if (undecidable.some((pattern) => pattern.test(args))) return null;
  return params
    .map(({ repeated, value }) =>
      repeated.test(args) ? DEFAULT_VALUE : (value.exec(args)?.groups?.value ?? DEFAULT_VALUE),
    )
    .join(SEPARATOR);
}

/**
 * Compiled once per query object: the server asks for every document with the manifest's same object.
 * @type {WeakMap<PageQuery, { undecidable: RegExp[], params: { repeated: RegExp, value: RegExp }[] }>}
 */
const compiled = new WeakMap();
/** @param {PageQuery} query */
function compiledPatterns(query) {
  let patterns = compiled.get(query);
  if (!patterns) {
    const source = variantPatterns(query);
    patterns = {
      undecidable: source.undecidable.map((pattern) => new RegExp(pattern)),
      params: source.params.map(({ repeated, value }) => ({
        repeated: new RegExp(repeated),
        value: new RegExp(value('value')),
      })),
    };
    compiled.set(query, patterns);
  }
  return patterns;
}

/**
 * Every variant a page has: its key and a query string that asks for it (defaults left out).
 * @param {PageQuery | undefined} query
 * @returns {{ key: string, search: string }[]}
 */
function allVariants(query) {
  const parameters = Object.entries(query ?? {});
  /** @type {(string | undefined)[][]} */
  let combinations = [[]];
  for (const [, values] of parameters) {
    const choices = [undefined, ...values];
    combinations = combinations.flatMap((chosen) => choices.map((value) => [...chosen, value]));
  }
  return combinations.map((values) => {
    const params = new URLSearchParams();
    values.forEach((value, index) => {
      const [name] = /** @type {[string, readonly string[]]} */ (parameters[index]);
      if (value !== undefined) params.set(name, value);
    });
    const search = params.toString() ? `?${params}` : '';
    return { key: variantKey(query, search), search };
  });
}

module.exports = {
  assertValidQuery,
  variantKey,
  serverVariantKey,
  variantPatterns,
  allVariants,
  DEFAULT_VALUE,
  SEPARATOR,
  SLUG,
};
