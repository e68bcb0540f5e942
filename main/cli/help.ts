/** The `hookbench` commands' longer help: what each prints, examples, exit statuses (shown after `--help`). */
import { EXPORT_LIMIT, EXPORT_TEXT_BYTES } from '../contract/commands.js';
import { IMPORT_LIMITS } from '../contract/importMessages.js';

export const SERVE_HELP = `
Prints "Hookbench ready: <uiUrl>" when it listens, and writes <data>/server.json
({version, pid, url, uiUrl, port, token, receiverUrl, receiverTlsUrl}) for other commands;
the file is removed on a clean stop (Ctrl-C or SIGTERM: in-flight work is finished first, exit 0).

Examples:
  hookbench serve
  hookbench serve --config hookbench.config.json --port 0 --data-dir ./.hookbench
  npm start -- --port 0 --data-dir ./.hookbench      # from the checkout: npm passes flags after --

Ports: 4400 (--port), and the mock receiver's 4410 (--receiver-port) and 4443 (--receiver-tls-port).
--port 0 picks a free port, and free receiver ports too unless you name them. Ports already in use are
all named in one error, each with the flag that moves it (exit 1).
--data DIR is accepted as an older spelling of --data-dir DIR.
Exit status: 0 stopped (Ctrl-C or SIGTERM), 1 could not start (a port in use, the data dir held by another
Hookbench, a database it cannot use), 2 bad input or usage (a flag, the config file).`;

/**
 * The one rule of the commands that use a workbench, said alike in each one's help; each adds what it
 * does when no serve runs.
 */
const THROUGH_SERVE = `With a running serve: check, delete-user, export, import, info, send, show and tail work through the
hookbench serve running on the data dir (--data-dir DIR, else $HOOKBENCH_DATA, else the per-user Hookbench
folder) when there is one, found through <data>/server.json.`;

export const DATA_DIR_OF_SERVE = 'data dir of the running hookbench serve (default: $HOOKBENCH_DATA, else the per-user Hookbench folder)';

export const DATA_ALIAS_HELP = '\n--data DIR is accepted as an older spelling of --data-dir DIR.';

export const DELETE_USER_HELP = `
${THROUGH_SERVE}
Without one, delete-user exits 2, saying where it looked.
${DATA_ALIAS_HELP}
Exit status: 0 requested, 1 the workbench could not take it, 2 bad input or usage (no serve there, a
--source that does not exist, a user no source has seen and no --source).`;

export const SEND_HELP = `
Examples:
  hookbench send track --to http://localhost:3000/hook --secret s3cret \\
    --data '{"userId":"u1","event":"Signed Up","properties":{"plan":"pro"}}'
  hookbench send identify --to https://example.test/hook --data @call.json --header "X-Env: dev"
  hookbench send track --to http://localhost:3000/hook --data '{"userId":"u1","event":"E"}' --fast --json

Give <type> before --to: --to takes one or more URLs (or repeat it).

${THROUGH_SERVE}
Through a serve, the message shows in its Live view and in tail: it goes to that serve's destination named
"hookbench send" (created or updated with these flags, enabled while the send runs, then disabled); --fast
moves that serve's engine clock forward (it says how far: Reset offset in the workbench puts it back), and
Ctrl-C cancels the message there. Without one, it sends in-process from a throw-away data dir, or with
--data-dir DIR records into DIR the same way.
Exit status: 0 delivered, 1 not delivered (failed, cancelled, filtered, interrupted), 2 bad input or usage.`;

export const VERIFY_HELP = `
Examples:
  hookbench verify --secret s3cret --signature 8f0e... --body @request-body.json
  curl -s https://example.test/last-body | hookbench verify --secret s3cret --signature 8f0e...

The body must be the exact bytes received; --body TEXT is taken as UTF-8.
Exit status: 0 the signature matches, 1 it does not (with a diagnosis), 2 bad input or usage.`;

export const RECEIVE_HELP = `
Examples:
  hookbench receive --secret s3cret       # http://127.0.0.1:4411; point send --to (or a destination) there
  hookbench receive --port 0 --respond 500,500,200 --json
  hookbench receive --respond 503,200 --retry-after 30
  hookbench receive --delay 6000          # Hookbench's 5 s timeout fires
  hookbench receive --tls                 # Hookbench refuses the self-signed certificate (tls_error)

--respond lists one answer per request, the last repeating: status codes (200-599), never (keep the
connection open without answering), reset (TCP reset) or close (close without a response); at most 100,
none empty (500,,200 is refused). --delay is at most 600000 ms (10 minutes).
It listens on 4411 by default: hookbench serve's own mock receiver has 4410, so both run side by side.
Every path is answered. Each request is printed as it arrives: method, path, headers, the script step
that answered, the X-Signature verdict with --secret (and a diagnosis when it is wrong), and the body.
Exit status: 0 stopped with Ctrl-C, 1 could not listen, 2 bad input or usage.`;

export const INFO_HELP = `
Examples:
  hookbench info                          # URLs, pid, data dir and API token of the running serve
  hookbench info token --data-dir ./data  # one value alone, for scripts
  TOKEN=$(hookbench info token); URL=$(hookbench info url)
  curl -s -X POST "$URL/api/getClock" -H "Authorization: Bearer $TOKEN" -d '{}'

${THROUGH_SERVE}
Without one, info exits 2, saying where it looked.
Exit status: 0 printed, 2 no serve runs on that data dir, or bad input or usage.`;

export const TAIL_HELP = `
Examples:
  hookbench tail                          # the serve on $HOOKBENCH_DATA, else the per-user folder
  hookbench tail --data-dir ./data --json

One line per message accepted, per attempt finished (outcome, status, duration, URL, next retry) and
per delivery status change (delivered, failed, cancelled, ...). Times are engine times, in local time.
--json prints the events as the serve pushes them, one JSON object per line (plus {"type":"dropped",
"count":N} when the serve had to leave some out). When the serve stops or restarts, tail reconnects
(found again through <data>/server.json); events while disconnected are not shown.

${THROUGH_SERVE}
Without one, tail exits 2, saying where it looked.
Exit status: 0 stopped with Ctrl-C, 2 no serve runs on that data dir, or bad input or usage.`;

export const SHOW_HELP = `
Examples:
  hookbench show 42
  hookbench show 42 --json --data-dir ./data
  hookbench show 42 --body | hookbench verify --secret s3cret --signature 8f0e...

<id> is the message's number, as tail, send and delete-user print it (#42).

${THROUGH_SERVE}
Without one, show reads the data dir itself.
Exit status: 0 shown, 1 no such message, 2 bad input or usage (or no data in that data dir).`;

export const EXPORT_HELP = `
Examples:
  hookbench export --out failed.har --status failed
  hookbench export --format json --source backend --from 2026-11-26 > today.jsonl
  hookbench export --id 41 --id 42 --format curl --out replay.sh --data-dir ./data

The same export as the UI's History > Export: HAR 1.2 (one entry per attempt), JSON lines (one message
a line, as the API answers it) or a shell script of curl commands sending each attempt's bytes again.
Without --format, the --out file's extension decides (.har, .jsonl or .ndjson, .sh), else HAR.
The newest ${EXPORT_LIMIT.toLocaleString('en-US')} matching messages at most, in at most ${EXPORT_TEXT_BYTES.toLocaleString('en-US')} bytes (what one import
takes; it says when more matched). Filters combine with AND; times are engine times. Secrets (shared
secrets, write keys, credential headers) are <redacted> unless --include-secrets. An existing --out file
is kept unless --force; the file is written whole or not at all, and only as a regular file (a device,
a FIFO or a symbolic link there is refused).

${THROUGH_SERVE}
Without one, export reads the data dir itself.
Exit status: 0 written, 1 nothing written (no message matched, or the text could not be written: a full disk),
2 bad input or usage (an --out file already there, or whose folder is missing or not writable).`;

export const IMPORT_HELP = `
Examples:
  hookbench import failed.har
  hookbench import today.jsonl --source backend --keep-message-ids --data-dir ./data
  hookbench export --format json --status failed | hookbench import - --data-dir ./other

Reads a HAR or JSON lines export (hookbench export, the UI's Export) and sends its messages again as new
messages: through --source, else each one's original source, else its original destinations, where they
exist in this workbench. Each gets a new messageId unless --keep-message-ids (receivers that de-duplicate
drop them). At most ${IMPORT_LIMITS.messages.toLocaleString('en-US')} messages and ${IMPORT_LIMITS.textBytes.toLocaleString('en-US')} bytes, what one export holds; a cURL script cannot be imported.
All or nothing: the first bad entry is named (line 3, log.entries[5]) and nothing is imported.

${THROUGH_SERVE}
Through a serve the messages are delivered at once, but for a disabled destination (the one hookbench send
keeps is, between sends): its deliveries wait, queued, until it is enabled, and the import names it.
Without a serve, they wait, queued, in the data dir until hookbench serve starts there.
Exit status: 0 imported, 1 the workbench could not take them, 2 bad input or usage.`;

export const CHECK_HELP = `
Examples:
  hookbench check http://localhost:3000/webhooks --secret "$WEBHOOK_SECRET"
  hookbench check https://staging.example.com/hook --secret s3cret --junit check.xml
  hookbench check https://localhost:8443/hook --secret s3cret --ca-file "$(mkcert -CAROOT)/rootCA.pem"
  hookbench check http://localhost:3000/hook --secret s3cret --only signature.wrong-secret,redelivery.same-message --json
  hookbench check http://localhost:3000/hook --secret s3cret --capacity 30 --expect-rate 200
  hookbench check --list

Sends the battery (shapes, signature, time, redelivery, burst, status, transport, content type; docs/check.md)
and the --scenarios file's cases, built and signed exactly as the Webhooks destination does, and prints one
line per check (✓ pass, ✗ fail, ! warn), the evidence of each failure, and "N passed, M failed, K warnings".
--capacity SECONDS (1 to 300) then measures the deliveries per second it sustains, 16 in flight as the
destination sends; --expect-rate N fails below N (p99 under the timeout, no errors) and warns under 2x N.

${THROUGH_SERVE}
Through a serve, the run is kept and compared with the previous run of the URL. Without one, check runs
in-process with a throw-away data dir.
Exit status: 0 no check failed (warnings allowed), 1 a check failed or could not run (a run that ran no
check is never a success), 2 bad input or usage, or the URL cannot be reached at all.`;

export const DOCTOR_HELP = `
Runs SQLite's full integrity check on <data dir>/hookbench.db, read-only (a running serve may keep running),
and, when it finds damage, lists it and says how to recover. Hookbench itself refuses to start on a damaged
database, and refuses writes (503) if damage or a deleted database file is found while it runs.

Examples:
  hookbench doctor --data-dir ./.hookbench
  hookbench doctor --data-dir ./.hookbench --salvage      # Hookbench must be stopped
  hookbench doctor --data-dir ./.hookbench --move-aside   # Hookbench must be stopped

--salvage moves the damaged files aside (as --move-aside), makes a fresh database in their place and copies
into it every row of your data that can still be read, skipping the damaged pages; it prints, per table,
how many rows came back of about how many, and where the damaged file went. It needs nothing but Hookbench.

Exit status: 0 the database is sound (or was moved aside, or salvaged), 1 it is damaged, missing or in use,
or nothing could be read from it.`;
