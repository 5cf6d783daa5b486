const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { createStoreBudget, droppedIn, MEASURE_EVERY_MS } = require('./storeBudget');

const HOUR = '2026-11-26T10';
const start = Date.UTC(2026, 10, 26, 10, 30);

/** @type {string} */
let dir;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-budget-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/**
 * Another writer's file of `bytes` bytes in an hour's folder.
 * @param {string} hour
 * @param {number} bytes
 */
function otherWriter(hour, bytes, name = 'other-1.ndjson') {
  fs.mkdirSync(path.join(dir, hour), { recursive: true });
  fs.writeFileSync(path.join(dir, hour, name), 'x'.repeat(bytes));
}

/** Lets a measure under way end (it reads the folder in the background). */
const settled = () => new Promise((resolve) => setTimeout(resolve, 200));

describe('the store budget', () => {
  it("refuses past the hour's budget by what this writer wrote, before any measure sees it", async () => {
    let time = start;
    const budget = createStoreBudget({ dir, name: 'me-1', hourBytes: 1000, totalBytes: 10_000, now: () => time });
    await budget.measure();
    expect(budget.admit()).toBe(true);
    budget.spent(999);
    expect(budget.admit()).toBe(true);
    budget.spent(1);
    expect(budget.admit()).toBe(false);
    // A new hour has a budget of its own.
    time = start + 3600_000;
    await budget.measure();
    expect(budget.admit()).toBe(true);
  });

  it("sees every writer's files of the hour when it measures, at most every few seconds", async () => {
    let time = start;
    const budget = createStoreBudget({ dir, name: 'me-1', hourBytes: 1000, totalBytes: 10_000, now: () => time });
    expect(budget.admit()).toBe(true);
    await settled();
    otherWriter(HOUR, 1000);
    time += MEASURE_EVERY_MS - 1;
    // Not measured again yet: the other writer's bytes are not seen.
    expect(budget.admit()).toBe(true);
    await settled();
    expect(budget.admit()).toBe(true);
    time += 1;
    // This one starts a measure, and is answered from the last one; the next ones from the new one.
    expect(budget.admit()).toBe(true);
    await settled();
    expect(budget.admit()).toBe(false);
  });

  it('refuses past the total budget, counting the hours before this one', async () => {
    const budget = createStoreBudget({ dir, name: 'me-1', hourBytes: 1000, totalBytes: 2500, now: () => start });
    otherWriter('2026-11-26T08', 900);
    otherWriter('2026-11-26T09', 900);
    otherWriter(HOUR, 600);
    await budget.measure();
    expect(budget.admit()).toBe(true);
    budget.spent(100);
    expect(budget.admit()).toBe(false);
  });

  it('marks the drops of its window for the readers that decide, and nothing outside it', async () => {
    let time = start;
    const budget = createStoreBudget({ dir, name: 'me-1', hourBytes: 1000, totalBytes: 10_000, now: () => time });
    budget.spent(1000);
    expect(droppedIn(dir, { since: start - 60_000, until: start + 60_000 })).toBe(false);
    expect(budget.admit()).toBe(false);
    time += 30_000;
    expect(budget.admit()).toBe(false);
    expect(fs.readFileSync(path.join(dir, HOUR, 'me-1.dropped'), 'utf8')).toBe(`${start} ${start + 30_000}\n`);
    expect(droppedIn(dir, { since: start - 60_000, until: start })).toBe(true);
    expect(droppedIn(dir, { since: start + 10_000, until: start + 20_000 })).toBe(true);
    expect(droppedIn(dir, { since: start - 60_000, until: start - 1 })).toBe(false);
    expect(droppedIn(dir, { since: start + 32_000, until: start + 60_000 })).toBe(false);
    // Its records are still read as before: the marker is not one of them.
    expect(fs.readdirSync(path.join(dir, HOUR))).toEqual(['me-1.dropped']);
  });

  it('takes a marker it cannot read as a drop in its hour', () => {
    fs.mkdirSync(path.join(dir, HOUR), { recursive: true });
    fs.writeFileSync(path.join(dir, HOUR, 'torn-1.dropped'), '17');
    expect(droppedIn(dir, { since: start, until: start + 1000 })).toBe(true);
    expect(droppedIn(dir, { since: start + 3600_000, until: start + 3601_000 })).toBe(false);
  });
});
