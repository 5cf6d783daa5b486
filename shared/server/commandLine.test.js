/** @jest-environment node */
// The command-line convention, run as a command would be: a script that reads its arguments and ends by it.
const { spawnSync } = require('node:child_process');
const { numberOption, readCommandLine, UsageError, wholeNumberOption } = require('./commandLine');

const SPEC = {
  usage: 'demo <a> [<b>] [--n <n>]',
  min: 1,
  max: 2,
  options: { n: { type: /** @type {const} */ ('string') } },
};

/**
 * Runs a command built on the convention whose main does `body`.
 * @param {string} body JavaScript, with `readCommandLine`, `Refusal`, `Undecided`, `SPEC` and `argv` in scope
 * @param {string[]} argv
 */
function run(body, argv) {
  const script = `
    const { readCommandLine, Refusal, runCommand, Undecided } = require(${JSON.stringify(require.resolve('./commandLine'))});
    const SPEC = ${JSON.stringify(SPEC)};
    const argv = process.argv.slice(1);
    runCommand(SPEC.usage, async () => { ${body} });`;
  return spawnSync(process.execPath, ['-e', script, '--', ...argv], { encoding: 'utf8' });
}

describe('readCommandLine', () => {
  it('reads positional arguments and options', () => {
    expect(readCommandLine(['x', '--n', '3', 'y'], SPEC)).toEqual({
      values: { n: '3' },
      positionals: ['x', 'y'],
    });
  });

  it.each([
    [[], /^missing arguments$/],
    [['x', 'y', 'z'], /^unexpected argument "z"$/],
    [['x', '--nope'], /^Unknown option '--nope'$/],
    [['x', '--n'], /^Option '--n <value>' argument missing$/],
  ])('refuses %j as wrong usage, in one line', (argv, message) => {
    expect(() => readCommandLine(argv, SPEC)).toThrow(UsageError);
    expect(() => readCommandLine(argv, SPEC)).toThrow(message);
  });
});

describe('wholeNumberOption', () => {
  it('reads a whole number in its range, or nothing', () => {
    expect(wholeNumberOption('42', '--n')).toBe(42);
    expect(wholeNumberOption(undefined, '--n')).toBeUndefined();
  });

  it.each(['-1', '1.5', 'abc', '', '70000'])('refuses %j', (text) => {
    expect(() => wholeNumberOption(text, '--port', { min: 1, max: 65535 })).toThrow(
      `--port must be a whole number from 1 to 65535, not "${text}"`,
    );
  });
});

describe('numberOption', () => {
  it('reads a number with decimals in its range, or nothing', () => {
    expect(numberOption('0.01', '--alpha', { min: 0.0001, max: 0.5 })).toBe(0.01);
    expect(numberOption('12', '--margin', { min: 0, max: 1000 })).toBe(12);
    expect(numberOption(undefined, '--alpha', { min: 0, max: 1 })).toBeUndefined();
  });

  it.each(['-1', '1e3', '.5', 'abc', '', '2000'])('refuses %j', (text) => {
    expect(() => numberOption(text, '--margin', { min: 0, max: 1000 })).toThrow(
      `--margin must be a number from 0 to 1000, not "${text}"`,
    );
  });
});

describe('how a command ends', () => {
  it('exits 0 when done', () => {
    const result = run('readCommandLine(argv, SPEC); console.log("done");', ['x']);
    expect(result).toMatchObject({ status: 0, stdout: 'done\n', stderr: '' });
  });

  it('prints the usage on --help and exits 0, running nothing', () => {
    const help = run('readCommandLine(argv, SPEC); console.log("ran");', ['--help']);
    expect(help).toMatchObject({ status: 0, stdout: `usage: ${SPEC.usage}\n`, stderr: '' });
  });

  it('exits 2 on wrong usage, with the error and the usage, no stack', () => {
    const result = run('readCommandLine(argv, SPEC);', []);
    expect(result).toMatchObject({ status: 2, stdout: '', stderr: `error: missing arguments\nusage: ${SPEC.usage}\n` });
  });

  it('exits 1 on a refusal, in one line', () => {
    const result = run('throw new Refusal("release x is not in the store");', ['x']);
    expect(result).toMatchObject({ status: 1, stdout: '', stderr: 'error: release x is not in the store\n' });
  });

  it('exits 3 when a check could not come to a verdict, in one line', () => {
    const result = run('throw new Undecided("the gate could not judge: its browser did not start");', ['x']);
    expect(result).toMatchObject({
      status: 3,
      stdout: '',
      stderr: 'error: the gate could not judge: its browser did not start\n',
    });
  });

  it('exits 1 on any other failure, with its message and no stack', () => {
    const result = run('throw new Error("the disk is full");', ['x']);
    expect(result).toMatchObject({ status: 1, stderr: 'error: the disk is full\n' });
  });
});
