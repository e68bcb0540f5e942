/**
 * Receiver code that verifies X-Signature the right way (docs/behaviour.md §2): HMAC-SHA1 keyed with the
 * shared secret over the RAW body bytes (before any JSON parsing), lowercase hex, compared in constant time.
 * The secret comes from the environment, never from this page.
 */

export const SNIPPET_LANGUAGES = ['node', 'python', 'go', 'ruby', 'php'] as const;
export type SnippetLanguage = (typeof SNIPPET_LANGUAGES)[number];

export const SNIPPET_LABELS: Record<SnippetLanguage, string> = { node: 'Node', python: 'Python', go: 'Go', ruby: 'Ruby', php: 'PHP' };

export const SNIPPETS: Record<SnippetLanguage, string> = {
  node: `// Node.js + Express: verify the raw bytes, parse JSON only afterwards.
const crypto = require('node:crypto');
const express = require('express');

const app = express();
const secret = process.env.WEBHOOK_SECRET;

app.post('/webhook', express.raw({ type: '*/*' }), (req, res) => {
  const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  const expected = crypto.createHmac('sha1', secret).update(raw).digest('hex');
  const given = String(req.get('x-signature') || '').toLowerCase();
  const ok = given.length === expected.length &&
    crypto.timingSafeEqual(Buffer.from(given), Buffer.from(expected));
  if (!ok) return res.status(401).send('invalid signature');

  const event = JSON.parse(raw.toString('utf8'));
  console.log(event.type, event.messageId);
  res.sendStatus(200);
});

app.listen(8080);
`,
  python: `# Python + Flask: verify the raw bytes, parse JSON only afterwards.
import hashlib, hmac, json, os
from flask import Flask, abort, request

app = Flask(__name__)
SECRET = os.environ["WEBHOOK_SECRET"].encode()

@app.post("/webhook")
def webhook():
    raw = request.get_data()  # the exact bytes received
    expected = hmac.new(SECRET, raw, hashlib.sha1).hexdigest()
    given = request.headers.get("X-Signature", "").lower()
    if not hmac.compare_digest(expected.encode(), given.encode()):
        abort(401)

    event = json.loads(raw)
    print(event["type"], event["messageId"])
    return "", 200
`,
  go: `// Go (net/http): verify the raw bytes, decode JSON only afterwards.
package main

import (
	"crypto/hmac"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"io"
	"log"
	"net/http"
	"os"
	"strings"
)

var secret = []byte(os.Getenv("WEBHOOK_SECRET"))

func webhook(w http.ResponseWriter, r *http.Request) {
	raw, err := io.ReadAll(r.Body) // the exact bytes received
	if err != nil {
		http.Error(w, "cannot read body", http.StatusBadRequest)
		return
	}
	mac := hmac.New(sha1.New, secret)
	mac.Write(raw)
	expected := hex.EncodeToString(mac.Sum(nil))
	given := strings.ToLower(r.Header.Get("X-Signature"))
	if !hmac.Equal([]byte(expected), []byte(given)) {
		http.Error(w, "invalid signature", http.StatusUnauthorized)
		return
	}

	var event map[string]any
	if err := json.Unmarshal(raw, &event); err != nil {
		http.Error(w, "invalid JSON", http.StatusBadRequest)
		return
	}
	log.Println(event["type"], event["messageId"])
	w.WriteHeader(http.StatusOK)
}

func main() {
	http.HandleFunc("/webhook", webhook)
	log.Fatal(http.ListenAndServe(":8080", nil))
}
`,
  ruby: `# Ruby + Sinatra: verify the raw bytes, parse JSON only afterwards.
require "json"
require "openssl"
require "sinatra"

SECRET = ENV.fetch("WEBHOOK_SECRET")

post "/webhook" do
  request.body.rewind
  raw = request.body.read # the exact bytes received
  expected = OpenSSL::HMAC.hexdigest("SHA1", SECRET, raw)
  given = request.env["HTTP_X_SIGNATURE"].to_s.downcase
  halt 401, "invalid signature" unless Rack::Utils.secure_compare(expected, given)

  event = JSON.parse(raw)
  puts "#{event["type"]} #{event["messageId"]}"
  status 200
end
`,
  php: `<?php
// PHP: verify the raw bytes, decode JSON only afterwards.
$secret = getenv('WEBHOOK_SECRET');
$raw = file_get_contents('php://input'); // the exact bytes received
$expected = hash_hmac('sha1', $raw, $secret);
$given = strtolower($_SERVER['HTTP_X_SIGNATURE'] ?? '');
if (!hash_equals($expected, $given)) {
    http_response_code(401);
    exit('invalid signature');
}

$event = json_decode($raw, true);
error_log($event['type'] . ' ' . $event['messageId']);
http_response_code(200);
`,
};
