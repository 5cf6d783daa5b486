// The verdicts of `npm run bench:compare`: per metric, each commit's median over the rounds, the median of the
// rounds' own ratios (this checkout / the other commit), and the budget it is held to (docs/performance.md).
const { median } = require('../report/statistics');
const { fmtNumber, fmtRatio } = require('../report/format');
const { textTable } = require('../report/renderText');

/** @typedef {import('./compare').Sample} Sample */
/**
 * A budget on one metric: `ratio` bounds the median of the rounds' ratios, `difference` the difference of the
 * medians (this checkout's minus the other's), `value` this checkout's median; `at least` or `at most`.
 * @typedef {{ metric: RegExp, by: 'ratio' | 'difference' | 'value', bound: 'at least' | 'at most', limit: number }}
 *   Budget
 */

/** @type {Budget[]} */
const BUDGETS = [
  { metric: /documents\/s$/, by: 'ratio', bound: 'at least', limit: 0.95 },
  { metric: /^nginx p99 ms$/, by: 'ratio', bound: 'at most', limit: 1.1 },
  { metric: /^Lighthouse /, by: 'difference', bound: 'at least', limit: -2 },
  { metric: /^TBT /, by: 'difference', bound: 'at most', limit: 50 },
  // docs/performance.md's budget for a click to the next page, whatever the other commit does.
  { metric: /^navigation /, by: 'value', bound: 'at most', limit: 100 },
];

/**
 * @param {Sample[]} samples
 * @param {{ against: string, current: string, quick: boolean, condition?: string }} commits condition: what this
 *   checkout ran under, when not as it is
 */
function comparisonReport(samples, { against, current, quick, condition }) {
  const metrics = [...new Set(samples.map((sample) => sample.metric))];
  const verdicts = metrics.map((metric) => {
    const of = (/** @type {string} */ commit) =>
      samples.filter((sample) => sample.metric === metric && sample.commit === commit);
    const rounds = [...new Set(of(current).map((sample) => sample.round))];
    const ratios = rounds.map((round) => {
      const mine = of(current).find((sample) => sample.round === round)?.value;
      const theirs = of(against).find((sample) => sample.round === round)?.value;
      return typeof mine === 'number' && typeof theirs === 'number' && theirs !== 0 ? mine / theirs : null;
    });
    const theirs = median(of(against).map((sample) => sample.value));
    const mine = median(of(current).map((sample) => sample.value));
    const ratio = median(ratios);
    const budget = BUDGETS.find((candidate) => candidate.metric.test(metric));
    const measured =
      budget?.by === 'ratio'
        ? ratio
        : budget?.by === 'value'
          ? mine
          : mine !== null && theirs !== null
            ? mine - theirs
            : null;
    const ok =
      budget && measured !== null
        ? budget.bound === 'at least'
          ? measured >= budget.limit
          : measured <= budget.limit
        : undefined;
    return { metric, against: theirs, current: mine, ratio, rounds: rounds.length, budget, measured, ok };
  });
  const rows = verdicts.map((verdict) => [
    verdict.metric,
    fmtNumber(verdict.against),
    fmtNumber(verdict.current),
    fmtRatio(verdict.ratio),
    verdict.budget
      ? `${verdict.budget.by} ${verdict.budget.bound} ${verdict.budget.limit > 0 && verdict.budget.by === 'difference' ? '+' : ''}${verdict.budget.limit}`
      : '',
    verdict.ok === undefined ? '' : verdict.ok ? 'ok' : 'MISSED',
  ]);
  const text = [
    `${current} against ${against}${quick ? ' (quick: a first answer, not a verdict)' : ''}`,
    ...(condition ? [`(${condition})`] : []),
    textTable(['', against, current, 'ratio', 'budget', ''], rows),
    "(medians over the rounds; ratio: the median of the rounds' own ratios, this checkout / the other commit)",
  ].join('\n');
  return {
    text,
    verdicts: verdicts.map(({ budget, ...rest }) => ({
      ...rest,
      budget: budget && { ...budget, metric: String(budget.metric) },
    })),
  };
}

module.exports = { comparisonReport };
