"""A webhook receiver with a classic Python mistake, for hookbench check's tests: it verifies X-Signature
over json.dumps(json.loads(body)) (what Flask's request.json re-encoded gives), not over the raw bytes.
Usage: python3 json_dumps_receiver.py SECRET; prints "listening PORT" once it accepts connections."""
import hashlib
import hmac
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SECRET = sys.argv[1].encode()


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        try:
            body = json.loads(raw)
        except ValueError:
            return self.answer(400, b"not JSON")
        expected = hmac.new(SECRET, json.dumps(body).encode(), hashlib.sha1).hexdigest()
        if not hmac.compare_digest(expected, self.headers.get("X-Signature", "")):
            return self.answer(401, b"invalid signature")
        self.answer(200, b"ok")

    def answer(self, status, text):
        self.send_response(status)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(text)))
        self.end_headers()
        self.wfile.write(text)

    def log_message(self, *args):
        pass


# socketserver's listen backlog of 5 would make a burst wait for SYN retries: this receiver is about json.dumps only.
ThreadingHTTPServer.request_queue_size = 64
server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(f"listening {server.server_address[1]}", flush=True)
server.serve_forever()
