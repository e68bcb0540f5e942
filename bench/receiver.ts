/**
 * The benchmark's webhook receiver, run as a child process (node:child_process fork) so it has the other
 * core to itself: a plain http server on 127.0.0.1:0 that reads each request body and answers
 * 200 {"ok":true} with keep-alive. It reports its port, and on request its counters, over IPC, and exits
 * as soon as its parent goes away.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isReceiverCommand, type ReceiverReport } from './protocol.js';

const RESPONSE = Buffer.from('{"ok":true}');
const RESPONSE_HEADERS = { 'content-type': 'application/json', 'content-length': String(RESPONSE.length) };

if (!process.send) {
  console.error('bench/receiver: must be started with child_process.fork (no IPC channel)');
  process.exit(1);
}
const send = (report: ReceiverReport): void => {
  process.send?.(report);
};

let requests = 0;
let bodyBytes = 0;
let cpuMark = process.cpuUsage();

const server = createServer((req, res) => {
  req.on('data', (chunk: Buffer) => {
    bodyBytes += chunk.length;
  });
  req.on('end', () => {
    requests++;
    res.writeHead(200, RESPONSE_HEADERS).end(RESPONSE);
  });
});
// Keep connections open across the contenders; nothing here should ever time a client out.
server.keepAliveTimeout = 120_000;
server.headersTimeout = 0;
server.requestTimeout = 0;
server.maxRequestsPerSocket = 0;

process.on('message', (message: unknown) => {
  if (!isReceiverCommand(message)) return;
  const cpu = process.cpuUsage(cpuMark);
  cpuMark = process.cpuUsage();
  send({ type: 'stats', requests, bodyBytes, cpuUserMs: cpu.user / 1000, cpuSystemMs: cpu.system / 1000 });
  requests = 0;
  bodyBytes = 0;
});
process.on('disconnect', () => process.exit(0));

server.listen(0, '127.0.0.1', () => {
  send({ type: 'listening', port: (server.address() as AddressInfo).port });
});
