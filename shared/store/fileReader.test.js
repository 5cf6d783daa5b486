/** @jest-environment node */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { fileReader } = require('./fileReader');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nativegtm-file-reader-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('fileReader', () => {
  it('reads a file once, sees an edit once its last look is older than the interval, and a file that goes', () => {
    const file = path.join(dir, 'remotes.json');
    let time = 0;
    let reads = 0;
    const read = fileReader(
      (text) => {
        reads += 1;
        return text.toUpperCase();
      },
      { checkIntervalMs: 200, now: () => time },
    );
    expect(read(file)).toBeUndefined();
    fs.writeFileSync(file, 'one');
    time = 100;
    // Within the interval, the last look (no file) stands.
    expect(read(file)).toBeUndefined();
    time = 200;
    expect(read(file)).toBe('ONE');
    fs.writeFileSync(file, 'two!');
    time = 399;
    expect(read(file)).toBe('ONE');
    time = 400;
    expect(read(file)).toBe('TWO!');
    time = 1000;
    expect(read(file)).toBe('TWO!');
    expect(reads).toBe(2);
    fs.rmSync(file);
    time = 1200;
    expect(read(file)).toBeUndefined();
  });
});
