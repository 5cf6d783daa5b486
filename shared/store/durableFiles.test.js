/** @jest-environment node */
const { racingProcesses } = require('./testing/racingProcesses');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { appendLinesDurably, createFileOnce, replaceLinkDurably, writeFileDurably } = require('./durableFiles');
const { itOnSmallDisk, mountSmallDisk } = require('./testing/smallDisk');

/** @type {string} */
let dir;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'durable-files-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('appendLinesDurably', () => {
  it('starts on a line of its own after a line cut short, so that only the cut line is lost', () => {
    const file = path.join(dir, 'history.jsonl');
    appendLinesDurably(file, '{"n":1}\n');
    fs.appendFileSync(file, '{"n":2,"cut');
    appendLinesDurably(file, '{"n":3}\n');
    expect(fs.readFileSync(file, 'utf8')).toBe('{"n":1}\n{"n":2,"cut\n{"n":3}\n');
  });

  it('adds no blank line to a file that ends with a newline, or is empty', () => {
    const file = path.join(dir, 'records.ndjson');
    fs.writeFileSync(file, '');
    appendLinesDurably(file, 'a\n', { sync: false });
    appendLinesDurably(file, 'b\nc\n');
    expect(fs.readFileSync(file, 'utf8')).toBe('a\nb\nc\n');
  });

  it('undoes its append', () => {
    const file = path.join(dir, 'history.jsonl');
    appendLinesDurably(file, 'a\n');
    fs.appendFileSync(file, 'cut');
    const undo = appendLinesDurably(file, 'b\n');
    undo();
    expect(fs.readFileSync(file, 'utf8')).toBe('a\ncut');
  });
});

describe('writeFileDurably', () => {
  it('replaces a file whole and leaves nothing beside it', () => {
    const file = path.join(dir, 'gate.json');
    writeFileDurably(file, 'old');
    writeFileDurably(file, 'new', { mode: 0o600 });
    expect(fs.readFileSync(file, 'utf8')).toBe('new');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(dir)).toEqual(['gate.json']);
  });
});

describe('replaceLinkDurably', () => {
  it('turns a link to a new target and leaves nothing beside it', () => {
    const link = path.join(dir, 'live');
    replaceLinkDurably(link, 'aaaaaaaaaaaaaaaa');
    replaceLinkDurably(link, 'bbbbbbbbbbbbbbbb');
    expect(fs.readlinkSync(link)).toBe('bbbbbbbbbbbbbbbb');
    expect(fs.readdirSync(dir)).toEqual(['live']);
  });

  it('leaves the link as it was when it cannot be turned', () => {
    const link = path.join(dir, 'live');
    fs.mkdirSync(link);
    fs.writeFileSync(path.join(link, 'in-the-way'), '');
    expect(() => replaceLinkDurably(link, 'aaaaaaaaaaaaaaaa')).toThrow();
    expect(fs.readdirSync(dir)).toEqual(['live']);
  });
});

describe('createFileOnce', () => {
  it('makes the file once; a second call leaves the first one’s', () => {
    const file = path.join(dir, '.key');
    expect(createFileOnce(file, 'first', { mode: 0o600 })).toBe(true);
    expect(createFileOnce(file, 'second', { mode: 0o600 })).toBe(false);
    expect(fs.readFileSync(file, 'utf8')).toBe('first');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(dir)).toEqual(['.key']);
  });

  // Six Node processes start and load the module: 3 s beside a busy suite on two cores, past jest's 5 s with more.
  it('gives processes racing to make it one file, made by one of them', async () => {
    const file = path.join(dir, '.key');
    const script = `
      const { createFileOnce } = require(${JSON.stringify(require.resolve('./durableFiles'))});
      const made = createFileOnce(process.argv[1], String(process.pid));
      process.stdout.write(JSON.stringify({ made, read: require('node:fs').readFileSync(process.argv[1], 'utf8') }));
    `;
    const runs = (await racingProcesses(6, script, [file])).map((out) => JSON.parse(out));
    const content = fs.readFileSync(file, 'utf8');
    expect(runs.filter((run) => run.made)).toHaveLength(1);
    expect(runs.every((run) => run.read === content)).toBe(true);
    expect(fs.readdirSync(dir)).toEqual(['.key']);
  }, 30_000);
});

describe('on a full disk', () => {
  const onSmallDisk = itOnSmallDisk(it, 'the full-disk tests of durableFiles');
  /** @type {import('./testing/smallDisk').SmallDisk | undefined} */
  let disk;
  afterEach(() => {
    disk?.unmount();
    disk = undefined;
  });

  onSmallDisk('fails each write with ENOSPC, leaving every file as it was and nothing beside them', () => {
    disk = mountSmallDisk('256k');
    const json = path.join(disk.dir, 'record.json');
    const lines = path.join(disk.dir, 'history.jsonl');
    const key = path.join(disk.dir, '.key');
    writeFileDurably(json, '{"v":1}\n');
    // Almost a page: the next line needs a new one.
    appendLinesDurably(lines, `${'x'.repeat(4000)}\n`);
    disk.fill();
    const before = fs.readdirSync(disk.dir).sort();

    expect(() => writeFileDurably(json, `{"v":2,"pad":"${'y'.repeat(8000)}"}\n`)).toThrow(/ENOSPC/);
    expect(() => appendLinesDurably(lines, `${'z'.repeat(8000)}\n`)).toThrow(/ENOSPC/);
    expect(() => createFileOnce(key, 'k'.repeat(64))).toThrow(/ENOSPC/);

    expect(fs.readFileSync(json, 'utf8')).toBe('{"v":1}\n');
    expect(fs.readFileSync(lines, 'utf8')).toBe(`${'x'.repeat(4000)}\n`);
    expect(fs.readdirSync(disk.dir).sort()).toEqual(before);

    disk.free();
    writeFileDurably(json, '{"v":2}\n');
    appendLinesDurably(lines, 'next\n');
    expect(fs.readFileSync(json, 'utf8')).toBe('{"v":2}\n');
    expect(fs.readFileSync(lines, 'utf8')).toBe(`${'x'.repeat(4000)}\nnext\n`);
  });
});
