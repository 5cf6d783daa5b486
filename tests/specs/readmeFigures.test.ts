// One source for each figure: every number of docs/performance.md's "At a glance" (where the README sends readers for
// the figures) is one the runs recorded further down that page give, so that a new run recorded there cannot leave an
// old figure standing in the summary.
import fs from 'node:fs';
import path from 'node:path';

const repoRoot = path.join(__dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(repoRoot, file), 'utf8');

/** A level-2 section of a Markdown text, up to the next heading of its level. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start === -1) throw new Error(`No section "${heading}"`);
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end === -1 ? undefined : end);
}

/** The numbers of a text: a date whole, any other number alone (each end of a range such as 0.61-0.68 apart). */
function numbersIn(text: string): string[] {
  const date = /\b\d{4}-\d{2}-\d{2}\b/g;
  const dates = text.match(date) ?? [];
  return [...dates, ...(text.replace(date, ' ').match(/\d+(?:,\d{3})*(?:\.\d+)?/g) ?? [])];
}

/** Whether `number` is in `text` as a number of its own: 131 is not in "131.4 KB", nor 1.0 in "1.05". */
function hasNumber(text: string, number: string): boolean {
  const escaped = number.replace(/[.]/g, '\\.');
  return new RegExp(`(?<![\\d.,])${escaped}(?![\\d]|[.,]\\d)`).test(text);
}

describe('the performance figures at a glance', () => {
  const performance = read('docs/performance.md');
  const atAGlance = section(performance, 'At a glance');
  const figures = numbersIn(atAGlance);
  const recorded = performance.replace(atAGlance, '');

  it('are all recorded in the runs docs/performance.md gives below them', () => {
    expect(figures.length).toBeGreaterThan(40);
    expect([...new Set(figures)].filter((number) => !hasNumber(recorded, number))).toEqual([]);
  });

  it('are told apart from numbers that only look alike', () => {
    expect(numbersIn('loads 131.4 KB, 11,300 a second, 0.61-0.68x (2026-11-25)')).toEqual([
      '2026-11-25',
      '131.4',
      '11,300',
      '0.61',
      '0.68',
    ]);
    expect(hasNumber('131.4 KB', '131')).toBe(false);
    expect(hasNumber('1.05 and 11,300', '1.0')).toBe(false);
    expect(hasNumber('1.05 and 11,300', '300')).toBe(false);
    expect(hasNumber('(0.67, 1.02)', '1.02')).toBe(true);
  });
});
