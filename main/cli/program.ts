/**
 * The `hookbench` command line (docs/behaviour.md §10), built with commander. `runCli` parses argv, runs one
 * command against an injectable CliIO and returns the exit code: tests call it in-process, and
 * `main/cli.ts` only wires it to the real process.
 */
import { Argument, Command, CommanderError, Option } from 'commander';
import { CONFIG_LIMITS, MESSAGE_TYPES } from '../contract/message/messageShapes.js';
import { EXIT, jsonErrorLine, type CliIO } from './io.js';
import { CHECK_HELP, DATA_DIR_OF_SERVE, DELETE_USER_HELP, DOCTOR_HELP, EXPORT_HELP, IMPORT_HELP, INFO_HELP, RECEIVE_HELP, SEND_HELP, SERVE_HELP, SHOW_HELP, TAIL_HELP, VERIFY_HELP } from './help.js';
import { capacitySeconds, collect, dataAlias, dataDirFrom, durationMs, expectRate, portNumber, reportEveryRefusedValue, wholeNumber } from './options.js';
import { DEFAULT_RECEIVE_PORT, runReceive, type ReceiveDeps, type ReceiveOptions } from './commands/receive.js';
import { runSend, type SendDeps, type SendOptions } from './commands/send/send.js';
import { runCheckCommand, type CheckDeps, type CheckOptions } from './commands/check.js';
import { runDeleteUser } from './commands/deleteUser.js';
import { INFO_FIELDS, runInfo } from './commands/info.js';
import { runDoctor } from './commands/doctor.js';
import { runServe, type ServeOptions } from './commands/serve.js';
import { runShow } from './commands/show.js';
import { runTail, type TailDeps } from './commands/tail.js';
import { runVerify } from './commands/verify.js';
import { runExport, type ExportOptions } from './commands/export.js';
import { runImport, type ImportOptions } from './commands/import.js';
import { EXPORT_FORMATS } from '../contract/api.js';
import { DEFAULT_RECEIVER_PORT, DEFAULT_RECEIVER_TLS_PORT, RECEIVER_LIMITS } from '../contract/receiver/receiver.js';
import { CHECK_LIMITS } from '../contract/check/checkInputs.js';
import { DELIVERY_STATUSES } from '../contract/deliveries.js';
import { MESSAGE_STATUSES } from '../contract/messages.js';
import { HOOKBENCH_VERSION } from '../contract/version.js';

export interface CliDeps {
  /** Passed to `send` (tests: temp root, jitter seed). */
  send?: SendDeps;
  /** Passed to `receive` (tests: temp root). */
  receive?: ReceiveDeps;
  /** Passed to `tail` (tests: reconnection waits, time zone). */
  tail?: TailDeps;
  /** Passed to `check` (tests: temp root, timeout and "slow" threshold). */
  check?: CheckDeps;
}

/** The commands whose `--json` output is JSON lines, a refusal among them as `{"type": "error", ...}` on stdout. */
const JSON_LINE_COMMANDS = new Set(['send', 'receive', 'import', 'delete-user']);

/** Whether argv asks one of those commands for JSON lines (a `--json` before any `--` that ends the flags). */
function wantsJsonLines(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return JSON_LINE_COMMANDS.has(argv[0] ?? '') && (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}

/**
 * Commander's refusal (`error: option '--timeout <ms>' argument '-1' is invalid. …`, one line per refused flag,
 * a `(Did you mean …?)` line after its error) as the one JSON error line those commands print for their own
 * refusals: the first in `message`, the others in `problems`.
 */
function usageErrorLine(text: string): string {
  const errors: string[] = [];
  for (const line of text.trim().split('\n')) {
    if (line.startsWith('error: ')) errors.push(line.slice('error: '.length));
    else if (line !== '(add --help for usage)' && errors.length > 0) errors[errors.length - 1] += ` ${line}`;
  }
  const [first = text.trim(), ...rest] = errors;
  const more = rest.length ? ` (and ${rest.length} more problem${rest.length === 1 ? '' : 's'})` : '';
  return jsonErrorLine(first + more, rest.length ? { problems: rest.map((message) => ({ code: 'usage', message })) } : undefined);
}

export function buildProgram(io: CliIO, setExit: (code: number) => void, deps: CliDeps = {}, jsonLines = false): Command {
  const version = HOOKBENCH_VERSION;
  const program = new Command('hookbench');
  program
    .description('Hookbench: a webhook workbench. See exactly what a Webhooks destination sends and how it retries.')
    .version(version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .configureOutput({
      writeOut: (s) => io.stdout(s),
      writeErr: (s) => io.stderr(s),
      // With --json a script reads stdout alone: a refused flag is a JSON line there, as the command's own refusals are.
      outputError: (s, write) => (jsonLines ? io.stdout(usageErrorLine(s)) : write(s)),
    })
    .showHelpAfterError(jsonLines ? false : '(add --help for usage)')
    .exitOverride();

  program
    .command('send')
    .description('send one message to up to 5 webhook URLs and show every attempt and retry')
    .addArgument(new Argument('<type>', 'message type').choices(MESSAGE_TYPES))
    .requiredOption('--to <url...>', 'webhook URL(s), 1 to 5 (repeat --to or list them)')
    .option('--secret <secret>', 'shared secret: sign each request (X-Signature, HMAC-SHA1)')
    .option('--header <header>', 'static header "Name: value" for every webhook (repeatable, at most 5)', collect)
    .option('--data <json>', 'the whole call as JSON (userId, event, properties, ...), or @file, or @- for stdin')
    .addOption(new Option('--timeout <ms>', `response timeout per attempt (default 5000, at most ${CONFIG_LIMITS.timeoutMs})`).argParser(durationMs(1, CONFIG_LIMITS.timeoutMs, '2 min')))
    .addOption(new Option('--max-attempts <n>', `stop after this many attempts (at most ${CONFIG_LIMITS.maxAttempts})`).argParser(wholeNumber(1, CONFIG_LIMITS.maxAttempts)))
    .addOption(new Option('--retry-window <ms>', 'retry for this long after the first attempt (default 4h, at most 30 days)').argParser(durationMs(0, CONFIG_LIMITS.retryWindowMs, '30 days')))
    .option('--fast', 'play the retry schedule on a virtual clock: finishes at once')
    .option('--json', 'print one JSON object per line (attempts, retries, result)')
    .option('--data-dir <dir>', 'send through the hookbench serve running on this data dir (default: $HOOKBENCH_DATA, else the per-user folder); with none there, record into DIR (default: a throw-away one)')
    .version(version, '-V, --version', 'print the version')
    .addHelpText('after', SEND_HELP)
    .action(async (type: string, opts: Omit<SendOptions, 'type'>) => {
      setExit(await runSend({ ...opts, type }, io, deps.send));
    });

  program
    .command('verify')
    .description("check an X-Signature against a body, and say what went wrong when it doesn't match")
    .requiredOption('--secret <secret>', 'the destination\'s shared secret')
    .requiredOption('--signature <hex>', 'the X-Signature value to check')
    .option('--body <text>', 'the body: TEXT, @file (its exact bytes) or @- (stdin); default: stdin')
    .version(version, '-V, --version', 'print the version')
    .addHelpText('after', VERIFY_HELP)
    .action(async (opts: { secret: string; signature: string; body?: string }) => {
      setExit(await runVerify(opts, io));
    });

  program
    .command('serve')
    .description('run the engine, the ingestion API (/v1), the typed API (/api) and the UI until Ctrl-C')
    .option('--config <file>', 'a JSON config file of sources, destinations and receivers, applied at start')
    .option('--data-dir <dir>', 'data dir (default: $HOOKBENCH_DATA, else the per-user Hookbench folder)')
    .addOption(dataAlias())
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .addOption(new Option('--port <port>', 'HTTP port (0 picks a free one)').argParser(portNumber).default(4400))
    .addOption(new Option('--receiver-port <port>', `mock receiver HTTP port (default: ${DEFAULT_RECEIVER_PORT}, a free one with --port 0; 0 picks a free one)`).argParser(portNumber))
    .addOption(new Option('--receiver-tls-port <port>', `mock receiver HTTPS port (default: ${DEFAULT_RECEIVER_TLS_PORT}, a free one with --port 0; 0 picks a free one)`).argParser(portNumber))
    .version(version, '-V, --version', 'print the version')
    .addHelpText('after', SERVE_HELP)
    .action(async (opts: Omit<ServeOptions, 'receiverPort' | 'receiverTlsPort'> & { receiverPort?: number; receiverTlsPort?: number }) => {
      const dataDir = dataDirFrom(opts, 'serve', io);
      if (dataDir === false) return setExit(EXIT.usage);
      // --port 0 asks for a free port: the receiver ports the user did not name follow, so one flag gets a whole serve.
      const free = opts.port === 0;
      const receiverPort = opts.receiverPort ?? (free ? 0 : DEFAULT_RECEIVER_PORT);
      const receiverTlsPort = opts.receiverTlsPort ?? (free ? 0 : DEFAULT_RECEIVER_TLS_PORT);
      setExit(await runServe({ ...opts, receiverPort, receiverTlsPort, data: undefined, dataDir }, io));
    });

  program
    .command('delete-user')
    .description('create a deletion request: one delete message per source that has seen the user, to its enabled destinations')
    .argument('<userId>', 'the user whose data is deleted')
    .option('--source <name>', 'notify this source (repeatable; default: every source that has seen the user)', collect)
    .option('--data-dir <dir>', DATA_DIR_OF_SERVE)
    .addOption(dataAlias())
    .option('--json', 'print the result as JSON')
    .version(version, '-V, --version', 'print the version')
    .addHelpText('after', DELETE_USER_HELP)
    .action(async (userId: string, opts: { source?: string[]; data?: string; dataDir?: string; json?: boolean }) => {
      const dataDir = dataDirFrom(opts, 'delete-user', io);
      if (dataDir === false) return setExit(EXIT.usage);
      setExit(await runDeleteUser(userId, { ...opts, dataDir }, io));
    });

  program
    .command('tail')
    .description("stream a running serve's messages, attempts and deliveries to the terminal as they happen")
    .option('--data-dir <dir>', DATA_DIR_OF_SERVE)
    .option('--json', 'print the raw events, one JSON object per line')
    .version(version, '-V, --version', 'print the version')
    .addHelpText('after', TAIL_HELP)
    .action(async (opts: { dataDir?: string; json?: boolean }) => {
      setExit(await runTail(opts, io, deps.tail));
    });

  program
    .command('show')
    .description('show one message: its body (the exact bytes), deliveries and every attempt with headers and response')
    .argument('<id>', "the message's number (#42 in tail, send and delete-user output)")
    .option('--data-dir <dir>', 'data dir (default: $HOOKBENCH_DATA, else the per-user Hookbench folder)')
    .option('--json', 'print the message, deliveries and attempts as one JSON object')
    .option('--body', 'print only the body, its exact bytes')
    .version(version, '-V, --version', 'print the version')
    .addHelpText('after', SHOW_HELP)
    .action(async (id: string, opts: { dataDir?: string; json?: boolean; body?: boolean }) => {
      setExit(await runShow(id, opts, io));
    });

  program
    .command('export')
    .description("write messages with their deliveries and attempts to a file: HAR, JSON lines or cURL, as the UI's Export")
    .addOption(new Option('--format <format>', 'har, json (JSON lines) or curl (default: from the --out extension, else har)').choices(EXPORT_FORMATS))
    .option('-o, --out <file>', 'write to this file (default: stdout)')
    .option('--force', 'replace the --out file if it exists')
    .option('--include-secrets', 'keep shared secrets, write keys and credential headers (default: <redacted>)')
    .option('--id <id>', 'export this message (repeatable; instead of filters)', collect)
    .addOption(new Option('--status <status>', "the message's status").choices(MESSAGE_STATUSES))
    .addOption(new Option('--type <type>', 'message type').choices(MESSAGE_TYPES))
    .option('--source <name>', 'messages from this source (name or id)')
    .option('--destination <name>', 'messages with a delivery to this destination (name or id)')
    .option('--user <userId>', 'messages of this userId')
    .option('--event <name>', 'track event (or page/screen name), exactly')
    .option('--search <text>', 'a substring of the delivered body')
    .option('--from <time>', 'received at or after (ISO 8601, a date, or ms since the epoch)')
    .option('--to <time>', 'received before (ISO 8601, a date, or ms since the epoch)')
    .addOption(new Option('--delivery <status>', 'messages with at least one delivery in this status').choices(DELIVERY_STATUSES))
    .option('--delivery-since <time>', 'with --delivery: reached that status at or after this time')
    .option('--data-dir <dir>', 'data dir (default: $HOOKBENCH_DATA, else the per-user Hookbench folder)')
    .version(version, '-V, --version', 'print the version')
    .addHelpText('after', EXPORT_HELP)
    .action(async (opts: ExportOptions) => {
      setExit(await runExport(opts, io));
    });

  program
    .command('import')
    .description('send the messages of a HAR or JSON lines export again (all of them or, on a bad entry, none)')
    .argument('<file>', 'the export file, or - for stdin')
    .option('--source <name>', 'route every message through this source (name or id)')
    .option('--keep-message-ids', 'keep each messageId (default: a new one each)')
    .option('--json', 'print the result as JSON')
    .option('--data-dir <dir>', 'data dir (default: $HOOKBENCH_DATA, else the per-user Hookbench folder)')
    .version(version, '-V, --version', 'print the version')
    .addHelpText('after', IMPORT_HELP)
    .action(async (file: string, opts: ImportOptions) => {
      setExit(await runImport(file, opts, io));
    });

  program
    .command('info')
    .description("print the running serve's URLs, pid and API token (from <data>/server.json)")
    .addArgument(new Argument('[field]', 'print only this value').choices(INFO_FIELDS))
    .option('--data-dir <dir>', DATA_DIR_OF_SERVE)
    .option('--json', 'print JSON')
    .version(version, '-V, --version', 'print the version')
    .addHelpText('after', INFO_HELP)
    .action((field: string | undefined, opts: { dataDir?: string; json?: boolean }) => {
      setExit(runInfo(field, opts, io));
    });

  program
    .command('check')
    .description("check your own webhook receiver: does it accept every shape, refuse forgeries, answer in time, survive redelivery and a burst?")
    .argument('[url]', 'the receiver URL to check (http:// or https://)')
    .option('--secret <secret>', "the destination's shared secret: requests are signed with it, forgeries are made against it")
    .option('--header <header>', 'static header "Name: value" sent with every request (repeatable, at most 5)', collect)
    .option('--json', 'print the report as JSON: {url, startedAt, finishedAt, summary, diagnosis, checks, capacity}')
    .option('--junit <file>', 'also write the report as JUnit XML (one testcase per check) to this file')
    .option('--only <ids>', 'run only these check IDs, comma-separated (see --list)')
    .addOption(new Option('--burst <n>', `concurrent deliveries of the burst check (default ${CHECK_LIMITS.defaultBurst}, at most ${CHECK_LIMITS.maxBurst})`).argParser(wholeNumber(1, CHECK_LIMITS.maxBurst)))
    .option('--scenarios <file>', 'a JSON file of your own scenarios (schema/check-scenarios.schema.json), run after the battery')
    .option('--ca-file <file>', "also trust these CA certificates (a PEM file), as a destination's caFile: for a self-signed or local CA's https receiver")
    .addOption(new Option('--capacity <seconds>', 'also measure the deliveries per second it sustains, for this many seconds (1 to 300), sent as the destination sends them').argParser(capacitySeconds))
    .addOption(new Option('--expect-rate <n>', 'with --capacity: fail unless it sustains N deliveries per second (p99 under the timeout, no errors); warn under 2x').argParser(expectRate))
    .option('--list', 'print the check IDs (with the scenarios file\'s) and exit')
    .option('--data-dir <dir>', 'run through the hookbench serve of this data dir when one runs (default: $HOOKBENCH_DATA, else the per-user Hookbench folder)')
    .version(version, '-V, --version', 'print the version')
    .addHelpText('after', CHECK_HELP)
    .action(async (url: string | undefined, opts: CheckOptions) => {
      setExit(await runCheckCommand(url, opts, io, deps.check));
    });

  program
    .command('doctor')
    .description("check the data dir's database fully and say how to recover a damaged one")
    .option('--data-dir <dir>', 'data dir (default: $HOOKBENCH_DATA, else the per-user Hookbench folder)')
    .addOption(dataAlias())
    .option('--move-aside', 'rename the database (and its -wal, -shm files) out of the way: the next start begins a fresh one')
    .option('--salvage', 'move the database aside, then copy every row it still holds into a fresh one in its place')
    .version(version, '-V, --version', 'print the version')
    .addHelpText('after', DOCTOR_HELP)
    .action((opts: { dataDir?: string; data?: string; moveAside?: boolean; salvage?: boolean }) => {
      const dataDir = dataDirFrom(opts, 'doctor', io);
      if (dataDir === false) return setExit(EXIT.usage);
      setExit(runDoctor({ dataDir, moveAside: opts.moveAside, salvage: opts.salvage }, io));
    });

  program
    .command('receive')
    .description('run a local mock webhook receiver: print every request as it arrives and answer by a script')
    .addOption(new Option('--port <n>', `port to listen on (not serve's 4410, so both can run); 0 picks a free one`).default(DEFAULT_RECEIVE_PORT).argParser(portNumber))
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option('--secret <secret>', 'shared secret: check each X-Signature (HMAC-SHA1) and say what is wrong')
    .option('--respond <list>', 'answers in order, the last repeating: 500,500,200 (also never, reset, close; at most 100)', '200')
    .addOption(new Option('--delay <ms>', `wait this long before each answer (6000 makes Hookbench time out; at most ${RECEIVER_LIMITS.delayMs})`).argParser(durationMs(0, RECEIVER_LIMITS.delayMs, '10 min')))
    .addOption(new Option('--retry-after <seconds>', `send Retry-After with 429 and 5xx answers (at most ${RECEIVER_LIMITS.retryAfterSeconds}, a week)`).argParser(wholeNumber(0, RECEIVER_LIMITS.retryAfterSeconds, 'seconds')))
    .option('--tls', 'listen with HTTPS, presenting a self-signed certificate kept in the data dir')
    .option('--json', 'print one JSON object per line (listening, request, stopped)')
    .option('--data-dir <dir>', 'record the captures in this data dir instead of a throw-away one')
    .version(version, '-V, --version', 'print the version')
    .addHelpText('after', RECEIVE_HELP)
    .action(async (opts: ReceiveOptions) => {
      setExit(await runReceive(opts, io, deps.receive));
    });

  reportEveryRefusedValue(program);
  return program;
}

/** Parse `argv` (without node and the script) and run the command; resolves to the exit code. */
export async function runCli(argv: readonly string[], io: CliIO, deps: CliDeps = {}): Promise<number> {
  let code: number = EXIT.ok;
  const program = buildProgram(io, (c) => (code = c), deps, wantsJsonLines(argv));
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) {
      // --help and --version are successes; anything else commander refuses is a usage error.
      return e.code === 'commander.helpDisplayed' || e.code === 'commander.version' ? EXIT.ok : EXIT.usage;
    }
    io.stderr(`hookbench: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return EXIT.failed;
  }
  return code;
}
