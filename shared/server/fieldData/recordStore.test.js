const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { createRecordWriter, readRecords } = require('./recordStore');

/** @type {string} */
let dir;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'field-data-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const HOUR = 3600_000;
const start = Date.UTC(2026, 10, 26, 9, 30);
/** @param {number} t */
const view = (t) => ({
  t,
  type: /** @type {const} */ ('view'),
  route: '/',
  remote: 'candidates',
  release: 'r',
  device: 'mobile',
  nav: 'document',
  signed: false,
});

/** @param {AsyncIterable<unknown>} records */
async function all(records) {
  const list = [];
  for await (const record of records) list.push(record);
  return list;
}

describe('the record store', () => {
  it('keeps what every writer wrote, by the hour it was received, and reads back a window of it', async () => {
    let clock = start;
    const first = createRecordWriter({ dir, now: () => clock });
    const second = createRecordWriter({ dir, now: () => clock });
    first.write([view(clock)]);
    second.write([view(clock + 1)]);
    clock += HOUR;
    first.write([view(clock)]);
    first.flush();
    second.flush();
    expect(fs.readdirSync(dir).sort()).toEqual(['2026-11-26T09', '2026-11-26T10']);
    expect(await all(readRecords(dir, { since: start, until: start + 2 * HOUR }))).toHaveLength(3);
    expect(await all(readRecords(dir, { since: start + 1, until: start + HOUR }))).toEqual([
      view(start + 1),
      view(start + HOUR),
    ]);
  });

  it('skips a line cut short by a crash', async () => {
    const writer = createRecordWriter({ dir, now: () => start });
    writer.write([view(start)]);
    writer.flush();
    const [file] = fs.readdirSync(path.join(dir, '2026-11-26T09'));
    fs.appendFileSync(path.join(dir, '2026-11-26T09', String(file)), '{"t":1,"ty');
    expect(await all(readRecords(dir, { since: start, until: start + 1 }))).toEqual([view(start)]);
  });

  it('loses only the line a crash cut short: the next records start on a line of their own', async () => {
    const writer = createRecordWriter({ dir, now: () => start });
    writer.write([view(start)]);
    writer.flush();
    const [file] = fs.readdirSync(path.join(dir, '2026-11-26T09'));
    fs.appendFileSync(path.join(dir, '2026-11-26T09', String(file)), '{"t":1,"ty');
    writer.write([view(start + 1), view(start + 2)]);
    writer.flush();
    expect(await all(readRecords(dir, { since: start, until: start + 2 }))).toEqual([
      view(start),
      view(start + 1),
      view(start + 2),
    ]);
  });

  it('deletes the hours past its retention when it starts a new hour', async () => {
    let clock = start;
    const writer = createRecordWriter({ dir, retentionHours: 2, now: () => clock });
    for (let hour = 0; hour < 5; hour += 1) {
      writer.write([view(clock)]);
      writer.flush();
      clock += HOUR;
    }
    expect(fs.readdirSync(dir).sort()).toEqual(['2026-11-26T11', '2026-11-26T12', '2026-11-26T13']);
  });

  it('reads nothing from a folder that does not exist', async () => {
    expect(await all(readRecords(path.join(dir, 'none'), { since: 0 }))).toEqual([]);
  });
});
