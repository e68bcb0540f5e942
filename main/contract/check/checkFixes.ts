/**
 * "How to fix" code for the checks whose fix is the same few lines in every receiver: verifying X-Signature
 * (HMAC-SHA1 of the raw body bytes, lowercase hex, compared in constant time), answering a duplicate
 * messageId with 2xx again, answering before the slow work, and serving requests concurrently. Pure data: the Check screen shows it beside
 * a check that did not pass; docs/check.md points here.
 */

export const FIX_LANGUAGES = ['Node', 'Python', 'Go', 'Ruby', 'PHP'] as const;
export type FixLanguage = (typeof FIX_LANGUAGES)[number];

export interface FixSnippet {
  language: FixLanguage;
  code: string;
}

const VERIFY: Record<FixLanguage, string> = {
  Node: `// Express: read the raw bytes (express.raw), verify, then parse.
const crypto = require('node:crypto');
app.post('/webhooks', express.raw({ type: '*/*' }), (req, res) => {
  const expected = crypto.createHmac('sha1', process.env.WEBHOOK_SECRET).update(req.body).digest();
  const given = Buffer.from(String(req.get('X-Signature') ?? ''), 'hex');
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return res.sendStatus(401);
  const message = JSON.parse(req.body.toString('utf8'));
  res.sendStatus(200);
});`,
  Python: `# Flask: request.get_data() is the raw body; verify before parsing.
import hashlib, hmac, os
from flask import request, abort

@app.post("/webhooks")
def webhooks():
    body = request.get_data()
    expected = hmac.new(os.environ["WEBHOOK_SECRET"].encode(), body, hashlib.sha1).hexdigest()
    if not hmac.compare_digest(expected, request.headers.get("X-Signature", "").lower()):
        abort(401)
    message = request.get_json(force=True)
    return "", 200`,
  Go: `func webhooks(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, "bad body", http.StatusBadRequest)
		return
	}
	mac := hmac.New(sha1.New, []byte(os.Getenv("WEBHOOK_SECRET")))
	mac.Write(body)
	given, err := hex.DecodeString(r.Header.Get("X-Signature"))
	if err != nil || !hmac.Equal(given, mac.Sum(nil)) {
		http.Error(w, "invalid signature", http.StatusUnauthorized)
		return
	}
	// json.Unmarshal(body, &message) ...
	w.WriteHeader(http.StatusOK)
}`,
  Ruby: `# Sinatra: read the raw body once, verify, then parse.
require 'openssl'
require 'json'

post '/webhooks' do
  body = request.body.read
  expected = OpenSSL::HMAC.hexdigest('SHA1', ENV.fetch('WEBHOOK_SECRET'), body)
  given = request.env['HTTP_X_SIGNATURE'].to_s.downcase
  halt 401 unless Rack::Utils.secure_compare(expected, given)
  message = JSON.parse(body)
  status 200
end`,
  PHP: `<?php
$body = file_get_contents('php://input');
$expected = hash_hmac('sha1', $body, getenv('WEBHOOK_SECRET'));
$given = strtolower($_SERVER['HTTP_X_SIGNATURE'] ?? '');
if (!hash_equals($expected, $given)) {
    http_response_code(401);
    exit;
}
$message = json_decode($body, true);
http_response_code(200);`,
};

const DEDUPE: Record<FixLanguage, string> = {
  Node: `// A duplicate is a success: answer 2xx again, do the work once.
if (await seen.has(message.messageId)) return res.sendStatus(200);
await handle(message);
await seen.add(message.messageId); // e.g. a unique index, kept at least 24 h
res.sendStatus(200);`,
  Python: `# A duplicate is a success: answer 2xx again, do the work once.
if seen.exists(message["messageId"]):
    return "", 200
handle(message)
seen.add(message["messageId"])  # e.g. a unique index, kept at least 24 h
return "", 200`,
  Go: `// A duplicate is a success: answer 2xx again, do the work once.
if seen.Has(message.MessageID) {
	w.WriteHeader(http.StatusOK)
	return
}
handle(message)
seen.Add(message.MessageID) // e.g. a unique index, kept at least 24 h
w.WriteHeader(http.StatusOK)`,
  Ruby: `# A duplicate is a success: answer 2xx again, do the work once.
halt 200 if seen.include?(message['messageId'])
handle(message)
seen.add(message['messageId']) # e.g. a unique index, kept at least 24 h
status 200`,
  PHP: `<?php
// A duplicate is a success: answer 2xx again, do the work once.
if ($seen->has($message['messageId'])) { http_response_code(200); exit; }
handle($message);
$seen->add($message['messageId']); // e.g. a unique index, kept at least 24 h
http_response_code(200);`,
};

const RESPOND_FIRST: Record<FixLanguage, string> = {
  Node: `// Verify and store, answer, then work.
await queue.push(message);
res.sendStatus(202);`,
  Python: `# Verify and store, answer, then work (a task queue: Celery, RQ, ...).
queue.enqueue(handle, message)
return "", 202`,
  Go: `// Verify and store, answer, then work.
jobs <- message
w.WriteHeader(http.StatusAccepted)`,
  Ruby: `# Verify and store, answer, then work (Sidekiq, ActiveJob, ...).
HandleMessageJob.perform_later(message)
status 202`,
  PHP: `<?php
// Verify and store, answer, then work (a queue: Laravel jobs, Symfony Messenger, ...).
$queue->push($message);
http_response_code(202);`,
};

/** time.latency's fix when the slow answers were a burst queueing (battery.ts): answering first would not help. */
export const CONCURRENCY_FIX =
  "Handle concurrent requests: the destination sends up to 16 at once per origin. Run requests concurrently (async handlers, more workers or threads: gunicorn --workers/--threads, puma threads, PHP-FPM children), let at least 16 connections wait to be accepted (a listen backlog of 16 or more: Python's socketserver keeps 5 until the server class's request_queue_size is raised), and keep each answer short.";

const CONCURRENT: Record<FixLanguage, string> = {
  Node: `// One event loop serves every request: keep handlers asynchronous (no synchronous
// crypto, file or CPU-heavy work while a request waits), and hand slow work to a queue.
app.post('/webhooks', express.raw({ type: '*/*' }), async (req, res) => {
  await queue.push(req.body);
  res.sendStatus(202);
});
app.listen({ port: 3000, backlog: 511 });`,
  Python: `# gunicorn: workers x threads requests at once, and room for waiting connections.
#   gunicorn app:app --workers 4 --threads 4 --backlog 64
# http.server: one thread per request, and a backlog above socketserver's 5.
from http.server import ThreadingHTTPServer
ThreadingHTTPServer.request_queue_size = 64
ThreadingHTTPServer(("0.0.0.0", 3000), Handler).serve_forever()`,
  Go: `// net/http serves each request in its own goroutine: hold no lock for the whole
// request, and hand slow work to a pool of workers.
var jobs = make(chan []byte, 1024)

func webhooks(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	jobs <- body
	w.WriteHeader(http.StatusAccepted)
}`,
  Ruby: `# config/puma.rb: workers x threads requests at once.
workers 2
threads 8, 8
# bind with room for waiting connections
bind "tcp://0.0.0.0:3000?backlog=1024"`,
  PHP: `; php-fpm pool (www.conf): children enough for 16 requests at once.
pm = dynamic
pm.max_children = 32
pm.start_servers = 8
listen.backlog = 511`,
};

/**
 * time.latency's fix when no request of the run got an answer, forged ones included (battery.ts): a receiver
 * that refuses a forgery without any work and still does not answer it is not slow, it waits for something.
 */
export const NO_ANSWER_FIX =
  "Answer at all: the receiver answered none of the requests, not even forged ones it should refuse at once, so it is not slow work that holds it. It most likely waits for the body to end with the connection: read exactly Content-Length bytes (Python's http.server: self.rfile.read(int(self.headers['Content-Length'])); self.rfile.read() with no length waits for a close the destination never sends while it waits for the answer), then answer; or it has a handler path that never ends its response (Node: returning without res.end()).";

/**
 * time.latency's fix when the only requests left unanswered were forged ones (battery.ts): the receiver answers valid
 * requests in time, so answering 2xx sooner is not it; it works (or waits) before it verifies.
 */
export const FORGERIES_UNANSWERED_FIX =
  'Answer a forged request 401 at once: only requests whose X-Signature does not verify went unanswered, so the receiver does its slow work (or waits) before verifying, and the destination would retry each for 4 hours. Verify X-Signature first, before any other work (the signature checks of this run name each one).';

const READ_BODY: Record<FixLanguage, string> = {
  Node: `// Read the body to its end event (not to the socket's close), then answer.
const chunks = [];
req.on('data', (c) => chunks.push(c));
req.on('end', () => {
  const raw = Buffer.concat(chunks);
  // verify X-Signature over raw, store, then:
  res.writeHead(202).end();
});`,
  Python: `# http.server: read Content-Length bytes; rfile.read() alone waits for the connection to close.
length = int(self.headers.get("Content-Length", 0))
raw = self.rfile.read(length)
# verify X-Signature over raw, store, then answer with a Content-Length (HTTP/1.1 waits for it):
self.send_response(202)
self.send_header("Content-Length", "0")
self.end_headers()`,
  Go: `// r.Body ends at Content-Length: io.ReadAll returns then, not at the connection's close.
raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
if err != nil {
	http.Error(w, "bad body", http.StatusBadRequest)
	return
}
// verify X-Signature over raw, store, then:
w.WriteHeader(http.StatusAccepted)`,
  Ruby: `# Rack: the input ends at Content-Length.
raw = request.body.read
# verify X-Signature over raw, store, then:
status 202`,
  PHP: `<?php
// php://input ends at Content-Length.
$raw = file_get_contents('php://input');
// verify X-Signature over $raw, store, then:
http_response_code(202);`,
};

const snippets = (table: Record<FixLanguage, string>): FixSnippet[] => FIX_LANGUAGES.map((language) => ({ language, code: table[language] }));

/**
 * Code that fixes a check that did not pass, in every FIX_LANGUAGES language; null where no code applies.
 * `fix` is the check's own: time.latency's code follows what its evidence says (queueing, or slow work).
 */
const MOCK_ENDPOINT_FIX = 'Turn on Refuse invalid signatures for receiver endpoint';

/** The fix when the URL is the workbench's own mock endpoint answering by script: a setting, not code. */
export function mockEndpointFix(name: string, hasSecret: boolean): string {
  return `${MOCK_ENDPOINT_FIX} '${name}' (Receiver → the endpoint's editor, or "refuseInvalidSignatures": true in the config file${hasSecret ? '' : "; it needs a secret: give the endpoint the destination's shared secret"}): it then answers 401 to an invalid or missing X-Signature before its script, as a correct receiver does.`;
}

export function fixSnippetsFor(checkId: string, fix?: string | null): FixSnippet[] | null {
  // Code to verify signatures is no answer for the workbench's own endpoint: its fix is a setting.
  if (fix?.startsWith(MOCK_ENDPOINT_FIX)) return null;
  if (checkId.startsWith('signature.')) return snippets(VERIFY);
  if (checkId === 'redelivery.same-message') return snippets(DEDUPE);
  if (checkId === 'time.latency' && fix === CONCURRENCY_FIX) return snippets(CONCURRENT);
  if (checkId === 'time.latency' && fix === NO_ANSWER_FIX) return snippets(READ_BODY);
  if (checkId === 'time.latency' && fix === FORGERIES_UNANSWERED_FIX) return snippets(VERIFY);
  if (checkId === 'time.latency' || checkId === 'burst.concurrent') return snippets(RESPOND_FIRST);
  return null;
}
