// One convention for every command of the repository (npm start's serve, a package's serve, the release commands,
// nginx:config, new-page): arguments read by Node's own `util.parseArgs`, `--help` prints the usage, and the exit
// code says how it ended: 0 done, 1 refused (a well-formed request the command will not carry out, or a failure),
// 2 wrong usage (an unknown option, a missing or malformed argument), 3 undecided (a check that could not come to a
// verdict, such as the release gate on a machine too busy to run it in time). A refusal, a usage error or an
// undecided check is one line on stderr, never a stack trace.
const { parseArgs } = require('node:util');

const EXIT = Object.freeze({ done: 0, refused: 1, usage: 2, undecided: 3 });

/** The command line is wrong: exit 2, with the usage. */
class UsageError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'UsageError';
  }
}

/** A well-formed request the command will not carry out: exit 1, with the reason. */
class Refusal extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'Refusal';
  }
}

/**
 * A check that could not come to a verdict: exit 3, with why. Neither a pass nor a refusal of what was checked, so
 * nothing was changed or recorded, and the same command later may decide. A pipeline can tell it from a refusal by the
 * code and run the command again.
 */
class Undecided extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'Undecided';
  }
}

/**
 * @template {import('node:util').ParseArgsOptionsConfig} O
 * @typedef {object} CommandSpec
 * @property {string} usage one line: the command and its arguments, e.g. "npm run promote -- <remote> <release id>"
 * @property {string} [description] what the command does, printed by --help under the usage
 * @property {O} [options] parseArgs' options (--help is added)
 * @property {number} [min] fewest positional arguments (0 unless given)
 * @property {number} [max] most positional arguments (min unless given)
 */

/**
 * The command line's options and positional arguments, or a UsageError.
 * @template {import('node:util').ParseArgsOptionsConfig} O
 * @param {string[]} argv the arguments after the script (process.argv.slice(2))
 * @param {CommandSpec<O>} spec
 */
function readCommandLine(argv, { usage, description, options, min = 0, max = min }) {
  /** @type {{ values: Record<string, unknown>, positionals: string[] }} */
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    // One line, as every usage error: parseArgs' first sentence, without its advice about "--".
    const [first = ''] = /** @type {Error} */ (error).message.split(/\n|\. To specify/);
    throw new UsageError(first.replace(/\.$/, ''));
  }
  if (parsed.values.help) {
    process.stdout.write(`usage: ${usage}\n${description ? `\n${description}\n` : ''}`);
    process.exit(EXIT.done);
  }
  const count = parsed.positionals.length;
  if (count < min || count > max) {
    throw new UsageError(count < min ? 'missing arguments' : `unexpected argument "${parsed.positionals[max]}"`);
  }
  const values =
    /** @type {{ [K in keyof O]?: O[K] extends { type: 'boolean' } ? boolean : O[K] extends { multiple: true } ? string[] : string }} */ (
      parsed.values
    );
  return { values, positionals: parsed.positionals };
}

/**
 * A whole number from an option's text, or a UsageError naming the option.
 * @param {string | undefined} text
 * @param {string} option e.g. "--port"
 * @param {{ min?: number, max?: number }} [range]
 */
function wholeNumberOption(text, option, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}) {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) {
    throw new UsageError(`${option} must be a whole number from ${min} to ${max}, not "${text}"`);
  }
  return value;
}

/**
 * A number (decimals allowed, no sign or exponent) from an option's text, within bounds, or a UsageError naming the
 * option.
 * @param {string | undefined} text
 * @param {string} option e.g. "--alpha"
 * @param {{ min: number, max: number }} range
 */
function numberOption(text, option, { min, max }) {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || value < min || value > max) {
    throw new UsageError(`${option} must be a number from ${min} to ${max}, not "${text}"`);
  }
  return value;
}

/**
 * Runs a command's main function and ends the process by the convention: done 0, Refusal 1 (`error: …`), UsageError
 * 2 (`error: …` and the usage), Undecided 3 (`error: …`), anything else 1 with its message.
 * @param {string} usage
 * @param {() => unknown} main
 * @param {{ isRefusal?: (error: unknown) => boolean, exitWhenDone?: boolean }} [options]
 *   isRefusal: other error classes that are refusals (a busy store); exitWhenDone: exit 0 once main resolves (not
 *   for a server, which runs on)
 */
function runCommand(usage, main, { isRefusal = () => false, exitWhenDone = true } = {}) {
  Promise.resolve()
    .then(main)
    .then(
      () => {
        if (exitWhenDone) process.exit(EXIT.done);
      },
      (error) => {
        if (error instanceof UsageError) {
          process.stderr.write(`error: ${error.message}\nusage: ${usage}\n`);
          return process.exit(EXIT.usage);
        }
        if (error instanceof Undecided) {
          process.stderr.write(`error: ${error.message}\n`);
          return process.exit(EXIT.undecided);
        }
        const known = error instanceof Refusal || isRefusal(error);
        process.stderr.write(`error: ${known || error instanceof Error ? error.message : String(error)}\n`);
        return process.exit(EXIT.refused);
      },
    );
}

module.exports = {
  EXIT,
  Refusal,
  Undecided,
  UsageError,
  numberOption,
  readCommandLine,
  runCommand,
  wholeNumberOption,
};
