import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { formatPostedDate } from './postedDate';

describe('formatPostedDate', () => {
  it.each([
    ['2025-06-15', 'Jun 15, 2025'],
    ['2025-06-10', 'Jun 10, 2025'],
    ['2025-01-01', 'Jan 1, 2025'],
    ['2024-12-31', 'Dec 31, 2024'],
    ['2024-02-29', 'Feb 29, 2024'],
  ])('%s → %s', (isoDate, text) => {
    expect(formatPostedDate(isoDate)).toBe(text);
  });

  it('prints every month as Intl does for en-US', () => {
    const intl = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
    for (let month = 1; month <= 12; month += 1) {
      for (const day of [1, 9, 28]) {
        const isoDate = `2026-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
        expect(formatPostedDate(isoDate)).toBe(intl.format(new Date(`${isoDate}T00:00:00Z`)));
      }
    }
  });

  it.each(['2025-6-15', '2025-02-30', '15/06/2025', '2025-06-15T00:00:00Z', ''])('rejects %j', (value) => {
    expect(() => formatPostedDate(value)).toThrow(RangeError);
  });

  /*
   * Jest gives tests a copy of process.env, so TZ cannot be switched in this process. A child Node process started
   * in each zone runs the module instead (transpiled by TypeScript, which the repository already has). UTC midnight
   * is the boundary: in Los Angeles it is still the day before, in Kiritimati (UTC+14) already afternoon.
   */
  it.each([
    ['America/Los_Angeles', 14],
    ['Pacific/Kiritimati', 15],
    ['Pacific/Pago_Pago', 14],
    ['UTC', 15],
  ])('prints the ISO date’s own day for a visitor in %s', (zone, localDay) => {
    const moduleFile = path.join(__dirname, 'postedDate.ts');
    const script = `
      const ts = require('typescript');
      const source = require('node:fs').readFileSync(${JSON.stringify(moduleFile)}, 'utf8');
      const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
      const mod = { exports: {} };
      new Function('module', 'exports', js)(mod, mod.exports);
      process.stdout.write(JSON.stringify({
        zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
        localDay: new Date('2025-06-15T00:00:00Z').getDate(),
        texts: ['2025-06-15', '2025-06-10'].map(mod.exports.formatPostedDate),
      }));`;
    const output = execFileSync(process.execPath, ['-e', script], {
      env: { ...process.env, TZ: zone },
      cwd: __dirname,
      encoding: 'utf8',
    });
    // localDay proves the zone really applied; the texts are the ISO dates' own days all the same.
    expect(JSON.parse(output)).toEqual({ zone, localDay, texts: ['Jun 15, 2025', 'Jun 10, 2025'] });
  });
});
