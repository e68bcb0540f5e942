/** The `hookbench` flags' value parsers (a bad value is a usage error naming the expected form), and `--data`, the older spelling of `--data-dir`. */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { CHECK_LIMITS } from '../contract/check/checkInputs.js';
import { parseDurationMs, type CliIO } from './io.js';

const DURATION_FORMS = 'milliseconds (5000) or a whole number with a unit (5s, 30m, 4h, 2d)';

/**
 * A duration flag (`--timeout`, `--retry-window`, `--delay`): a refusal says the flag's range in ms and in words,
 * and what was wrong with the value (not a duration, negative, over the limit), since `5`, `-1` and `40d` are the
 * usual slips.
 */
export const durationMs =
  (min: number, max: number, maxInWords: string) =>
  (value: string): number => {
    const range = `from ${min} to ${max} ms (${maxInWords})`;
    const n = parseDurationMs(value);
    if (n === null) throw new InvalidArgumentError(/^\s*-\s*\d/.test(value) ? `a duration cannot be negative: give one ${range}` : `expected ${DURATION_FORMS}, ${range}`);
    if (n < min || n > max) throw new InvalidArgumentError(`must be ${range}`);
    return n;
  };

/** A count flag (`--max-attempts`, `--burst`, `--capacity`): a whole number within its limits, named in the refusal. */
export const wholeNumber =
  (min: number, max: number, of = '') =>
  (value: string): number => {
    const n = /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
    if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`expected a whole number ${of ? `of ${of} ` : ''}from ${min} to ${max}`);
    return n;
  };

export const portNumber = (value: string): number => {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) throw new InvalidArgumentError('expected a port number from 0 to 65535 (0 picks a free one)');
  return n;
};

/** `--capacity SECONDS`: a whole number of seconds within the check's limit. */
export const capacitySeconds = wholeNumber(1, CHECK_LIMITS.maxCapacitySeconds, 'seconds');

/** `--expect-rate N`: deliveries per second, more than 0 and within the check's limit. */
export const expectRate = (value: string): number => {
  const n = /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : NaN;
  if (!(n > 0) || n > CHECK_LIMITS.maxExpectRate) throw new InvalidArgumentError(`expected deliveries per second, more than 0 and at most ${CHECK_LIMITS.maxExpectRate}`);
  return n;
};

export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** `--data DIR`: the older spelling of `--data-dir DIR` on serve and delete-user, still accepted, not listed. */
export const dataAlias = () => new Option('--data <dir>', 'alias of --data-dir').hideHelp();

/** The data dir from `--data-dir` or its alias `--data`; false (after saying why) when both disagree. */
export function dataDirFrom(opts: { data?: string | undefined; dataDir?: string | undefined }, command: string, io: CliIO): string | undefined | false {
  if (opts.data !== undefined && opts.dataDir !== undefined && opts.data !== opts.dataDir) {
    io.stderr(`hookbench ${command}: --data ${opts.data} and --data-dir ${opts.dataDir} name different data dirs; give one (--data is an alias of --data-dir)\n`);
    return false;
  }
  return opts.dataDir ?? opts.data;
}

/** A flag's value its parser refused, kept until every flag is read so that all of them are named together. */
class RefusedValue {
  constructor(
    readonly value: string,
    readonly why: string,
  ) {}
}

/**
 * Makes every command name all its refused flag values in one error: commander stops at the first parser
 * that throws, so `--timeout abc --max-attempts 0` named only `--timeout`. Each parser's refusal is kept as
 * the option's value, and a hook before the action reports them in commander's own words, a line each.
 */
export function reportEveryRefusedValue(program: Command): void {
  const visit = (command: Command) => {
    for (const option of command.options) {
      const parse = option.parseArg;
      if (!parse) continue;
      option.parseArg = <T>(value: string, previous: T): T => {
        try {
          return parse(value, previous);
        } catch (error) {
          if (error instanceof InvalidArgumentError) return new RefusedValue(value, error.message) as T;
          throw error;
        }
      };
    }
    command.commands.forEach(visit);
  };
  visit(program);
  program.hook('preAction', (_, action) => {
    const refused = action.options.flatMap((option) => {
      const value: unknown = action.getOptionValue(option.attributeName());
      return value instanceof RefusedValue ? [`error: option '${option.flags}' argument '${value.value}' is invalid. ${value.why}`] : [];
    });
    if (refused.length > 0) action.error(refused.join('\n'), { code: 'commander.invalidArgument' });
  });
}
