/**
 * The `hookbench` command line (docs/behaviour.md §10), built with commander. `runCli` parses argv, runs one
 * command against an injectable CliIO and returns the exit code: tests call it in-process, and
 * `main/cli.ts` only wires it to the real process.
 */
import { Argument, Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { MESSAGE_TYPES } from '../contract/messageShapes.js';
import { EXIT, parseDurationMs, parsePositiveInt, type CliIO } from './io.js';
import { DEFAULT_RECEIVE_PORT, runReceive, type ReceiveDeps, type ReceiveOptions } from './receive.js';
import { runSend, type SendDeps, type SendOptions } from './send.js';
import { runCheckCommand, type CheckDeps, type CheckOptions } from './check.js';
import { runDeleteUser } from './deleteUser.js';
import { INFO_FIELDS, runInfo } from './info.js';
import { runDoctor } from './doctor.js';
import { runServe, type ServeOptions } from './serve.js';
import { runShow } from './show.js';
import { runTail, type TailDeps } from './tail.js';
import { runVerify } from './verify.js';
import { runExport, type ExportOptions } from './export.js';
import { runImport, type ImportOptions } from './import.js';
import { EXPORT_FORMATS } from '../contract/api.js';
import { DELIVERY_STATUSES, MESSAGE_STATUSES } from '../contract/models.js';
import { HOOKBENCH_VERSION } from '../contract/version.js';
import { EXPORT_LIMIT } from '../contract/commands.js';
import { IMPORT_LIMITS } from '../contract/importMessages.js';

const ms = (value: string): number => {
  const n = parseDurationMs(value);
  if (n === null) throw new InvalidArgumentError('expected milliseconds (5000) or a whole number with a unit: 5s, 30m, 4h');
  return n;
};

const positiveInt = (value: string): number => {
  const n = parsePositiveInt(value);
  if (n === null) throw new InvalidArgumentError('expected a whole number of at least 1');
  return n;
};

const portNumber = (value: string): number => {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) throw new InvalidArgumentError('expected a port number from 0 to 65535 (0 picks a free one)');
  return n;
};

const SERVE_HELP = `
Prints "Hookbench ready: <uiUrl>" when it listens, and writes <data>/server.json
({version, pid, url, uiUrl, port, token, receiverUrl, receiverTlsUrl}) for other commands;
the file is removed on a clean stop (Ctrl-C or SIGTERM: in-flight work is finished first, exit 0).

Examples:
  hookbench serve
  hookbench serve --config hookbench.config.json --port 0 --data-dir ./.hookbench

--data DIR is accepted as an older spelling of --data-dir DIR.`;

const seconds = (value: string): number => {
  const n = /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n)) throw new InvalidArgumentError('expected a whole number of seconds');
  return n;
};

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

const DATA_DIR_OF_SERVE = 'data dir of the running hookbench serve (default: $HOOKBENCH_DATA, else the per-user Hookbench folder)';
const DATA_ALIAS_HELP = '\n--data DIR is accepted as an older spelling of --data-dir DIR.';

/** `--data DIR`: the older spelling of `--data-dir DIR` on serve and delete-user, still accepted, not listed. */
const dataAlias = () => new Option('--data <dir>', 'alias of --data-dir').hideHelp();

/** The data dir from `--data-dir` or its alias `--data`; false (after saying why) when both disagree. */
function dataDirFrom(opts: { data?: string | undefined; dataDir?: string | undefined }, command: string, io: CliIO): string | undefined | false {
  if (opts.data !== undefined && opts.dataDir !== undefined && opts.data !== opts.dataDir) {
    io.stderr(`hookbench ${command}: --data ${opts.data} and --data-dir ${opts.dataDir} name different data dirs; give one (--data is an alias of --data-dir)\n`);
    return false;
  }
  return opts.dataDir ?? opts.data;
}

const SEND_HELP = `
Examples:
  hookbench send track --to http://localhost:3000/hook --secret s3cret \\
    --data '{"userId":"u1","event":"Signed Up","properties":{"plan":"pro"}}'
  hookbench send identify --to https://example.test/hook --data @call.json --header "X-Env: dev"
  hookbench send track --to http://localhost:3000/hook --data '{"userId":"u1","event":"E"}' --fast --json

Give <type> before --to: --to takes one or more URLs (or repeat it).
With --data-dir DIR, the message goes to a destination named "hookbench send" there (created or updated with
these flags, enabled while the send runs, then disabled). If a hookbench serve runs on DIR, the message is
sent through that serve (its typed API and event socket) instead of failing on its lock; --fast then moves
that serve's engine clock forward, and Ctrl-C cancels the message there.
Exit status: 0 delivered, 1 not delivered (failed, cancelled, filtered, interrupted), 2 bad input or usage.`;

const VERIFY_HELP = `
Examples:
  hookbench verify --secret s3cret --signature 8f0e... --body @request-body.json
  curl -s https://example.test/last-body | hookbench verify --secret s3cret --signature 8f0e...

The body must be the exact bytes received; --body TEXT is taken as UTF-8.
Exit status: 0 the signature matches, 1 it does not (with a diagnosis), 2 bad input or usage.`;

const RECEIVE_HELP = `
Examples:
  hookbench receive --secret s3cret       # http://127.0.0.1:4411; point send --to (or a destination) there
  hookbench receive --port 0 --respond 500,500,200 --json
  hookbench receive --respond 503,200 --retry-after 30
  hookbench receive --delay 6000          # Hookbench's 5 s timeout fires
  hookbench receive --tls                 # Hookbench refuses the self-signed certificate (tls_error)

--respond lists one answer per request, the last repeating: status codes (200-599), never (keep the
connection open without answering), reset (TCP reset) or close (close without a response).
It listens on 4411 by default: hookbench serve's own mock receiver has 4410, so both run side by side.
Every path is answered. Each request is printed as it arrives: method, path, headers, the script step
that answered, the X-Signature verdict with --secret (and a diagnosis when it is wrong), and the body.
Exit status: 0 stopped with Ctrl-C, 1 could not listen, 2 bad input or usage.`;

const INFO_HELP = `
Examples:
  hookbench info                          # URLs, pid, data dir and API token of the running serve
  hookbench info token --data-dir ./data  # one value alone, for scripts
  TOKEN=$(hookbench info token); URL=$(hookbench info url)
  curl -s -X POST "$URL/api/getClock" -H "Authorization: Bearer $TOKEN" -d '{}'

It reads <data>/server.json, which a running hookbench serve writes.
Exit status: 0 printed, 2 no serve runs on that data dir, or bad input or usage.`;

const TAIL_HELP = `
Examples:
  hookbench tail                          # the serve on $HOOKBENCH_DATA, else the per-user folder
  hookbench tail --data-dir ./data --json

One line per message accepted, per attempt finished (outcome, status, duration, URL, next retry) and
per delivery status change (delivered, failed, cancelled, ...). Times are engine times, in local time.
--json prints the events as the serve pushes them, one JSON object per line (plus {"type":"dropped",
"count":N} when the serve had to leave some out). When the serve stops or restarts, tail reconnects
(found again through <data>/server.json); events while disconnected are not shown.
Exit status: 0 stopped with Ctrl-C, 2 no serve runs on that data dir, or bad input or usage.`;

const SHOW_HELP = `
Examples:
  hookbench show 42
  hookbench show 42 --json --data-dir ./data
  hookbench show 42 --body | hookbench verify --secret s3cret --signature 8f0e...

<id> is the message's number, as tail, send and delete-user print it (#42).
It asks the running serve; when none runs on the data dir, it reads the data dir itself.
Exit status: 0 shown, 1 no such message, 2 bad input or usage (or no data in that data dir).`;
const EXPORT_HELP = `
Examples:
  hookbench export --out failed.har --status failed
  hookbench export --format json --source backend --from 2026-11-26 > today.jsonl
  hookbench export --id 41 --id 42 --format curl --out replay.sh --data-dir ./data

The same export as the UI's History > Export: HAR 1.2 (one entry per attempt), JSON lines (one message
a line, as the API answers it) or a shell script of curl commands sending each attempt's bytes again.
Without --format, the --out file's extension decides (.har, .jsonl or .ndjson, .sh), else HAR.
The newest ${EXPORT_LIMIT.toLocaleString('en-US')} matching messages at most (it says when more matched). Filters combine with AND;
times are engine times. Secrets (shared secrets, write keys, credential headers) are <redacted> unless
--include-secrets. An existing --out file is kept unless --force; the file is written whole or not at all.
It asks the running serve; when none runs on the data dir, it reads the data dir itself.
Exit status: 0 written, 1 no message matched (nothing written), 2 bad input or usage.`;

const IMPORT_HELP = `
Examples:
  hookbench import failed.har
  hookbench import today.jsonl --source backend --keep-message-ids --data-dir ./data
  hookbench export --format json --status failed | hookbench import - --data-dir ./other

Reads a HAR or JSON lines export (hookbench export, the UI's Export) and sends its messages again as new
messages: through --source, else each one's original source, else its original destinations, where they
exist in this workbench. Each gets a new messageId unless --keep-message-ids (receivers that de-duplicate
drop them). At most ${IMPORT_LIMITS.messages.toLocaleString('en-US')} messages and ${IMPORT_LIMITS.textChars.toLocaleString('en-US')} characters; a cURL script cannot be imported.
All or nothing: the first bad entry is named (line 3, log.entries[5]) and nothing is imported.
Through a running serve the messages are delivered at once; without one they wait, queued, in the data
dir until hookbench serve starts there.
Exit status: 0 imported, 1 the workbench could not take them, 2 bad input or usage.`;

const CHECK_HELP = `
Examples:
  hookbench check http://localhost:3000/webhooks --secret "$WEBHOOK_SECRET"
  hookbench check https://staging.example.com/hook --secret s3cret --junit check.xml
  hookbench check http://localhost:3000/hook --secret s3cret --only signature.wrong-secret,redelivery.same-message --json
  hookbench check --list

Sends the battery (shapes, signature, time, redelivery, burst, status, transport, content type; docs/check.md)
and the --scenarios file's cases, built and signed exactly as the Webhooks destination does, and prints one
line per check (✓ pass, ✗ fail, ! warn), the evidence of each failure, and "N passed, M failed, K warnings".
Runs through the hookbench serve of the data dir when one runs (the run is kept and compared with the
previous run of the URL), else in-process with a throw-away data dir.
Exit status: 0 no check failed (warnings allowed), 1 a check failed, 2 bad input or usage, or the URL
cannot be reached at all.`;

const DOCTOR_HELP = `
Runs SQLite's full integrity check on <data dir>/hookbench.db, read-only (a running serve may keep running),
and, when it finds damage, lists it and says how to recover. Hookbench itself refuses to start on a damaged
database, and refuses writes (503) if damage or a deleted database file is found while it runs.

Examples:
  hookbench doctor --data-dir ./.hookbench
  hookbench doctor --data-dir ./.hookbench --move-aside   # Hookbench must be stopped

Exit status: 0 the database is sound (or was moved aside), 1 it is damaged, missing or in use.`;

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

export function buildProgram(io: CliIO, setExit: (code: number) => void, deps: CliDeps = {}): Command {
  const version = HOOKBENCH_VERSION;
  const program = new Command('hookbench');
  program
    .description('Hookbench: a webhook workbench. See exactly what a Webhooks destination sends and how it retries.')
    .version(version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .configureOutput({
      writeOut: (s) => io.stdout(s),
      writeErr: (s) => io.stderr(s),
    })
    .showHelpAfterError('(add --help for usage)')
    .exitOverride();

  program
    .command('send')
    .description('send one message to up to 5 webhook URLs and show every attempt and retry')
    .addArgument(new Argument('<type>', 'message type').choices(MESSAGE_TYPES))
    .requiredOption('--to <url...>', 'webhook URL(s), 1 to 5 (repeat --to or list them)')
    .option('--secret <secret>', 'shared secret: sign each request (X-Signature, HMAC-SHA1)')
    .option('--header <header>', 'static header "Name: value" for every webhook (repeatable, at most 5)', collect)
    .option('--data <json>', 'the whole call as JSON (userId, event, properties, ...), or @file, or @- for stdin')
    .addOption(new Option('--timeout <ms>', 'response timeout per attempt (default 5000)').argParser(ms))
    .addOption(new Option('--max-attempts <n>', 'stop after this many attempts').argParser(positiveInt))
    .addOption(new Option('--retry-window <ms>', 'retry for this long after the first attempt (default 4h)').argParser(ms))
    .option('--fast', 'play the retry schedule on a virtual clock: finishes at once')
    .option('--json', 'print one JSON object per line (attempts, retries, result)')
    .option('--data-dir <dir>', 'record into this data dir instead of a throw-away one; if a hookbench serve runs there, send through it')
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
    .addOption(new Option('--receiver-port <port>', 'mock receiver HTTP port (0 picks a free one)').argParser(portNumber).default(4410))
    .addOption(new Option('--receiver-tls-port <port>', 'mock receiver HTTPS port (0 picks a free one)').argParser(portNumber).default(4443))
    .version(version, '-V, --version', 'print the version')
    .addHelpText('after', SERVE_HELP)
    .action(async (opts: ServeOptions) => {
      const dataDir = dataDirFrom(opts, 'serve', io);
      if (dataDir === false) return setExit(EXIT.usage);
      setExit(await runServe({ ...opts, data: undefined, dataDir }, io));
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
    .addHelpText('after', DATA_ALIAS_HELP)
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
    .option('--json', 'print the report as JSON: {url, startedAt, finishedAt, summary, checks}')
    .option('--junit <file>', 'also write the report as JUnit XML (one testcase per check) to this file')
    .option('--only <ids>', 'run only these check IDs, comma-separated (see --list)')
    .addOption(new Option('--burst <n>', 'concurrent deliveries of the burst check (default 50)').argParser(positiveInt))
    .option('--scenarios <file>', 'a JSON file of your own scenarios (schema/check-scenarios.schema.json), run after the battery')
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
    .version(version, '-V, --version', 'print the version')
    .addHelpText('after', DOCTOR_HELP)
    .action((opts: { dataDir?: string; data?: string; moveAside?: boolean }) => {
      const dataDir = dataDirFrom(opts, 'doctor', io);
      if (dataDir === false) return setExit(EXIT.usage);
      setExit(runDoctor({ dataDir, moveAside: opts.moveAside }, io));
    });

  program
    .command('receive')
    .description('run a local mock webhook receiver: print every request as it arrives and answer by a script')
    .addOption(new Option('--port <n>', `port to listen on (not serve's 4410, so both can run); 0 picks a free one`).default(DEFAULT_RECEIVE_PORT).argParser(portNumber))
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option('--secret <secret>', 'shared secret: check each X-Signature (HMAC-SHA1) and say what is wrong')
    .option('--respond <list>', 'answers in order, the last repeating: 500,500,200 (also never, reset, close)', '200')
    .addOption(new Option('--delay <ms>', 'wait this long before each answer (6000 makes Hookbench time out)').argParser(ms))
    .addOption(new Option('--retry-after <seconds>', 'send Retry-After with 429 and 5xx answers').argParser(seconds))
    .option('--tls', 'listen with HTTPS, presenting a self-signed certificate kept in the data dir')
    .option('--json', 'print one JSON object per line (listening, request, stopped)')
    .option('--data-dir <dir>', 'record the captures in this data dir instead of a throw-away one')
    .version(version, '-V, --version', 'print the version')
    .addHelpText('after', RECEIVE_HELP)
    .action(async (opts: ReceiveOptions) => {
      setExit(await runReceive(opts, io, deps.receive));
    });

  return program;
}

/** Parse `argv` (without node and the script) and run the command; resolves to the exit code. */
export async function runCli(argv: readonly string[], io: CliIO, deps: CliDeps = {}): Promise<number> {
  let code: number = EXIT.ok;
  const program = buildProgram(io, (c) => (code = c), deps);
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
